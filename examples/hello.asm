100 sys 32768
110 ;the lines up to SYS 32768 are BASIC, the assembler starts after it
120 *= $c000         ;the code goes to $C000 (49152), start it with SYS 49152
130 chrout = $ffd2   ;KERNAL routine that prints the character in A
140 ldx #0
150 loop lda text,x  ;a label stands at the start of a line, without a colon
160 beq done
170 jsr chrout
180 inx
190 bne loop
200 done rts
210 text .asc "hello, world!"
220 .byt 13,0        ;RETURN, and the 0 that ends the loop
