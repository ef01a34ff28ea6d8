100 sys 32768
110 ;raster bars -- the border and the background change colour line by
120 ;line as the VIC-II draws them; the space bar ends the program
130 *= $c000
140 chrout = $ffd2   ;KERNAL routine that prints the character in A
150 raster = $d012   ;the raster line the VIC-II draws now (low 8 bits)
160 border = $d020
170 paper = $d021
180 keycol = $dc00   ;CIA 1 port A selects keyboard columns ...
190 keyrow = $dc01   ;... port B reads their rows (0 = pressed)
200 top = 120        ;the raster line the first bar starts on
210 ldx #0
220 title lda text,x
230 beq bars
240 jsr chrout
250 inx
260 bne title
270 bars sei         ;no timer interrupt, it would delay the changes
280 frame lda #$7f   ;the column of the space bar
290 sta keycol
300 lda keyrow
310 and #$10         ;its row
320 beq done
330 ldx #0
340 wait lda raster
350 cmp #top
360 bne wait
370 bar lda colours,x
380 ldy raster
390 line cpy raster  ;wait for the next raster line
400 beq line
410 sta border
420 sta paper
430 inx
440 cpx #lines
450 bne bar
460 lda #14          ;light blue border, blue background, as at power-on
470 sta border
480 lda #6
490 sta paper
500 jmp frame
510 done cli
520 rts
530 text .asc "raster bars. space ends them."
540 .byt 13,0
550 colours .byt 6,6,6,14,14,14,3,3,3,1,1,1,3,3,3,14,14,14,6,6,6,0,0,0
560 .byt 2,2,2,10,10,10,7,7,7,1,1,1,7,7,7,10,10,10,2,2,2,0,0,0
570 .byt 9,9,9,8,8,8,5,5,5,13,13,13,1,1,1,13,13,13,5,5,5,8,8,8,9,9,9
580 lines = *-colours
