10 rem ** h-i-q: peg solitaire for the c64 **
20 rem after charles lund's high iq, basic computer games (1978)
30 dim b(90),j(4): for k=1 to 4: read j(k): next k
40 data 2,-2,18,-18
50 print "{clr}"; tab(17); "h-i-q"
60 print " based on charles lund's high iq (1978)"
70 print "  creative computing, morristown, n.j."
80 print: print "here is the board:": print
90 for r=1 to 7: print tab(9);
100 for c=2 to 8: x$="   "
110 if (r>2 and r<6) or (c>3 and c<7) then x$=mid$(str$(9*r+c),2)+" "
120 print x$;: next c: print: next r
130 print: print "jump a peg over a neighbour into an"
140 print "empty hole; the peg jumped over is"
150 print "removed. leave one peg for a perfect"
160 print "score. ! is a peg, o an empty hole."
170 print "type hole numbers to move."
200 rem ** new game: 32 pegs, centre empty **
210 for n=0 to 90: b(n)=-1: next n
220 for r=1 to 7: for c=2 to 8
230 if (r>2 and r<6) or (c>3 and c<7) then b(9*r+c)=1
240 next c,r: b(41)=0
300 rem ** show the board **
310 print: for r=1 to 7: print tab(13);
320 for c=2 to 8: n=9*r+c: x$="  "
330 if b(n)=1 then x$="! "
340 if b(n)=0 then x$="o "
350 print x$;: next c: print: next r: print
400 rem ** is any jump left? **
410 m=0: for n=13 to 69: if b(n)<>1 then 440
420 for k=1 to 4: t=n+j(k): if t<13 or t>69 then 435
430 if b(t)=0 and b(n+j(k)/2)=1 then m=1
435 next k
440 next n
450 if m=0 then 700
500 rem ** one move **
510 input "move which piece"; f
520 if f<>int(f) or f<13 or f>69 then 600
530 if b(f)<>1 then 600
540 input "to where"; t
550 if t<>int(t) or t<13 or t>69 then 600
560 if b(t)<>0 then 600
570 d=abs(t-f): if d<>2 and d<>18 then 600
575 if b((f+t)/2)<>1 then 600
580 b(f)=0: b((f+t)/2)=0: b(t)=1: goto 300
600 print "illegal move, try again...": goto 510
700 rem ** game over **
710 p=0: for n=13 to 69: if b(n)=1 then p=p+1
720 next n
730 print "the game is over."
740 print "you had"; p; "pieces remaining."
750 if p<>1 then 780
760 print tab(4); "bravo! you made a perfect score!"
770 print tab(4); "save this paper as a record of your accomplishment!"
780 print: input "play again (yes or no)"; a$
790 if left$(a$,1)<>"n" then 200
800 print: print "so long for now.": end
