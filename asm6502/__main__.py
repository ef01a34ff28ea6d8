from asm6502.cli import main

raise SystemExit(main())
