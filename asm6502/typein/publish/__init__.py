"""A type-in listing for print (``asm6502 publish``): ``page`` lays a format's listing out in
pages, ``glyphs`` (and ``fallback``) are the characters it is drawn with, ``render`` draws it as
SVG and HTML, ``check`` reads the page back and names the lines a reader is likely to misread."""
