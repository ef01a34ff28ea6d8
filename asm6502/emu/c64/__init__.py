"""A headless PAL C64 on the user's own ROM images: py65's 6510 with the
memory map, VIC-II, CIAs, keyboard and a virtual disk drive around it.

``roms`` finds and checks the ROM images; ``machine.C64`` is the computer;
``screen`` turns its screen into text or a PNG; ``session`` boots it, loads
and types, the way the command line uses it.
"""
