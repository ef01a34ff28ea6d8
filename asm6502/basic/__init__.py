"""Commodore 64 BASIC V2: tokens, tokenizer/detokenizer, Checksummer, interpreter."""
