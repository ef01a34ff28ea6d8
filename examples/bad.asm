10 *= $c000
20 lda #1
30 jmp nowhere
