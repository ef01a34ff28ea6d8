"""asm6502: bring printed Commodore 64 magazine programs back to life.

Profi-Ass 64 compatible two-pass 6502 assembler, MSE and Checksummer type-in
listings, C64 BASIC V2 tokenizer, py65-based verification and D64 images.
"""

__version__ = "0.1.0"
