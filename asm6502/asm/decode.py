"""Statement texts decoded once into typed records (the assembler's IR).

Both passes, every ``.goto`` round and every macro call meet the same
statement texts again and again.  :class:`Decoder` turns each distinct text
once into an immutable record (statements.py) -- instruction (mnemonic,
addressing form, opcodes, size, the operand's tree), definition, ``*=``, data,
pseudo-op, macro call, label -- and remembers it.  The passes only evaluate the
expression trees in the records (expr.value).

Errors that do not depend on any value (an unknown mnemonic, a mode the
mnemonic lacks, a bad expression) are in the record's ``problem``: (message,
offset, length), offsets 0-based in the statement text.
"""

from __future__ import annotations

import re

from asm6502.asm import expr as ex
from asm6502.asm.operand_text import OPERAND_LIMIT, OperandProblem, addressing_form, comma_not_index, keys, overflow, petscii, split_commas, texty
from asm6502.asm.precedence import is_mixed
from asm6502.asm.pseudo import DATA, PSEUDO_OPS, WORDS, foreign_hint
from asm6502.asm.reader import START_LINE
from asm6502.asm.statements import Bad, Call, Data, Define, Form, Insn, Label, Offsets, Origin, Pseudo, Record, Start
from asm6502.cpu import Cpu, instruction_set, unstable_mnemonics, unstable_opcodes
from asm6502.opcodes import Mode
from asm6502.opcodes_undoc import ALIASES, UNDOCUMENTED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


IDENT = re.compile(r"[A-Za-z][A-Za-z0-9.]*")
_PSEUDO = re.compile(r"\.([A-Za-z#]*)")
_OPERAND_SIZE = {mode: mode.operand_size for mode in Mode}

LABEL_FIELD = 10  # 'name = value' with a name of 11 characters or more is the original's SYNTAX 1 (labels_len_*)


class Decoder:
    """Decodes statement texts for one CPU, remembering every text it has seen."""

    def __init__(self, cpu: str, mixed: bool = True):
        self.opcodes = instruction_set(cpu)
        self.unstable = unstable_mnemonics(cpu)
        self.unstable_codes = unstable_opcodes(cpu)
        self.unstable_any = bool(self.unstable or self.unstable_codes)
        operandless = {Mode.IMPLIED, Mode.ACCUMULATOR}
        self.operandless = frozenset(m for m, modes in self.opcodes.items() if set(modes) <= operandless)
        self.records: dict[str, Record] = {}
        self.forms: dict[tuple, Form] = {}  # Form's fields -> the one Form of them
        self.shared: dict[tuple, Offsets] = {}  # Offsets' fields -> the one Offsets of them
        # text -> its tree, or (message, offset, length) when it is no expression
        self.expressions: dict[str, Any] = {}
        # a symbol name (lower case) -> its one Symbol at offset 0: the tree of the text that is the name, the first
        # operand of others ('name+2'); its key is one string object a name -- the label's in its record, the symbol
        # table's key and the key of every Symbol of it.  (Otherwise every name would be held twice, as equal strings.)
        self.symbols: dict[str, ex.Symbol] = {}
        self.forgotten: set[str] = set()  # the long names of the symbols dropped by forget (see long_names)
        # records assembled as the original reads them but worth a warning: id -> (record, message, offset, length)
        self.advised: dict[int, tuple] = {}
        self.advice: tuple | None = None  # (set while an operand is read)
        # the trees that the usual operator precedence would read otherwise ('a+b*c'): id -> itself
        # (assemble checks their values where they are used: a warning where the two readings differ); None when
        # no such warning is wanted (-W no-precedence, -q: a definition of such an expression then needs no
        # entry of its own)
        self.mixed: dict[int, Any] | None = {} if mixed else None

    def forget(self) -> None:
        """Drop the tables of texts read so far (after pass 1: the records live on in the entries)."""
        self.forgotten = self.long_names()
        self.records = {}
        self.expressions = {}
        self.symbols = {}
        self.forms = {}
        self.shared = {}

    # -- expressions ---------------------------------------------------------------

    def expression(self, text: str) -> ex.Node:
        """The tree of an expression text; raises ExprError.  One tree a text: convert tells the trees of
        '.if i-5' in each .goto round by identity."""
        found = self.expressions.get(text) or self.symbols.get(text) or self._new_expression(text, True)
        if type(found) is tuple:
            raise ex.ExprError(*found)
        return found

    def operand(self, text: str) -> ex.Node:
        """The tree of a statement's operand or definition: as :meth:`expression`, but a compound tree
        ('table+2') is not remembered by its text -- its statement's record is, and such texts are seldom met
        again in another statement (a definition's record is not kept at all: a large program has thousands)."""
        found = self.expressions.get(text) or self.symbols.get(text) or self._new_expression(text, False)
        if type(found) is tuple:
            raise ex.ExprError(*found)
        return found

    def _new_expression(self, text: str, keep: bool) -> Any:
        """The tree of an expression text not met before, or (message, offset, length) when it is no
        expression; remembered (a name in ``symbols``) when ``keep`` or it is one node or no expression."""
        found: Any
        try:
            found = ex.parse(text, self.symbols)
        except ex.ExprError as exc:
            found = (exc.message, exc.offset, exc.length)
        else:
            kind = type(found)
            if self.mixed is not None and kind is not ex.Symbol and is_mixed(found):
                self.mixed[id(found)] = found
            if found is self.symbols.get(text) or not keep and (kind is ex.Chain or kind is ex.Negate):
                return found
        self.expressions[text] = found
        return found

    def long_names(self) -> set[str]:
        """Every name longer than its 8 significant characters met in an expression (for the 8-character
        warning): the parser puts every name it reads in ``symbols``."""
        return self.forgotten | {name for name in self.symbols if len(name) > ex.SIGNIFICANT}

    def key_string(self, name: str) -> str:
        """The one string object of a label's name that is its own symbol key (lower case, at most 8 characters:
        see ``symbols``); any other name as it is."""
        if len(name) <= ex.SIGNIFICANT and name.islower():
            node = self.symbols.get(name)
            if node is None:
                node = self.symbols[name] = ex.Symbol(name, name, 0, len(name))
            return node.key
        return name

    # -- statements -----------------------------------------------------------------

    def decode(self, text: str) -> Record:
        """The record of a statement text, remembered unless it is a constant's definition or an instruction or
        data with a label: a name is defined once -- a second time is the original's REDEFINITION -- so such a
        text comes again only in a macro's body (read again at each call: a few decodings more) or as a duplicate,
        and a program has thousands of them: not kept, the table holds half the texts.  Nor is a label alone: it is
        the original's SYNTAX 0, an error, and the text comes again only in a loop or a macro's body."""
        record = self.records.get(text)
        if record is None:
            record = self._decode(text)
            kind = type(record)
            if record.var if kind is Define else record.label is None or kind is not Insn and kind is not Data and kind is not Label:
                self.records[text] = record
        return record

    def decode_after_blank_colon(self, text: str) -> Record:
        """A statement after ``: `` (a blank between the ``:`` and it) that starts with a name: the
        original reads no label or definition there (it takes one right after the ``:``).  When the
        name's first three letters are a mnemonic, it assembles that mnemonic with the operand after
        the whole word (``nop: ldaxy 5`` = LDA $05, ``nop: inxa`` = INX, ``nop: andy .byt 1`` =
        ``and .byt 1``: SYNTAX 5); any other name is SYNTAX 1, or SYNTAX 2 where a ``,`` outside
        quotes in the rest is not followed by x or y (the index check comes first: ``: abc 1,2``,
        ``: abc .wor 1,2``; but ``: abc lda 1,x``: 1).  Probes rules/colon_blank_*, fuzz seeds 14, 44, 403."""
        key = "\0" + text  # (the decoder's memory, beside the statements read the ordinary way)
        record = self.records.get(key)
        if record is None:
            record = self.records[key] = self._after_blank_colon(text)
        return record

    def _after_blank_colon(self, text: str) -> Record:
        if text[0] == "^":  # ('nop: ^ nop', 'nop: ^  ;x': rules/listing_insn_colon_blank_caret_*)
            return Bad(None, ("an up-arrow after ': ': the original takes one right after the ':' only [SYNTAX 1]", 0, 1))
        word = text.split(None, 1)[0]
        mnemonic = word[:3]
        if word.upper() in self.opcodes:
            return self.decode(text)
        if len(word) > 3 and mnemonic.isalpha() and mnemonic.upper() in self.opcodes:
            return self._instruction(None, mnemonic, " " * (len(word) - 3) + text[len(word) :], 3)
        if not word[:1].isalpha() and self.decode(text).label is None:
            return self.decode(text)
        if comma_not_index(text):
            return Bad(None, (f"'{word}' after ': ': the original takes no name after a ':' and a blank, and a ',' "
                                   "not followed by x or y is its first complaint there [SYNTAX 2]", 0, len(word)))  # fmt: skip
        return Bad(None, (f"'{word}' after ': ': the original takes a label or definition after ':' only without "
                               "a blank between them [SYNTAX 1]", 0, len(word)))  # fmt: skip

    def form(self, form: str, code: int, zp_code: int, fixed: bytes, size: int, prefix: str, unstable: bool, mnemonic: str,
             mode: Mode) -> Form:  # fmt: skip
        """One Form for every instruction record of these fields (Insn.shape)."""
        key = (form, code, zp_code, fixed, size, prefix, unstable, mnemonic, mode)
        found = self.forms.get(key)
        if found is None:
            found = self.forms[key] = Form(form, code, zp_code, fixed, size, prefix, unstable, mnemonic, self.opcodes[mnemonic], mode)
        return found

    def offsets(self, mnemonic_offset: int, operand_offset: int, operand_length: int, expr_offset: int) -> Offsets:
        """One Offsets for every instruction record of these (Insn.offsets)."""
        key = (mnemonic_offset, operand_offset, operand_length, expr_offset)
        found = self.shared.get(key)
        if found is None:
            found = self.shared[key] = Offsets(*key)
        return found

    def _decode(self, text: str) -> Record:
        offset = 0
        if text[0] == "^":  # up-arrow indentation (manual p. 9): '^    lda #1', '^lbl lda #1'
            if text[1:2] in (" ", "\t"):
                rest = text[1:].lstrip()
                offset = len(text) - len(rest)
                record = self._decode_at(rest, offset)
                if record.label is not None:
                    return Bad(None, ("a label must follow the up-arrow directly [SYNTAX 1]", offset, len(record.label)))
                return record
            return self._decode_at(text[1:], 1)
        return self._decode_at(text, 0)

    def _decode_at(self, text: str, base: int) -> Record:
        first = text[:1]
        if first == "." or first == "*" or first == "'":
            return self._body(None, text, base)
        if not first.isalpha():
            if first == '"':
                return Bad(None, ("a statement cannot start with a string [SYNTAX 1]", base, len(text)))
            if first == "=":  # '= 5', '=5' without a name: the original lists it and does nothing, as it does .stm
                return Pseudo(None, None, "stm", "=", text[1:].strip(), base + 1, base, 1)
            return _bad_start(first, base, text)
        m = IDENT.match(text)
        if m is None:
            return _bad_start(first, base)
        word = m.group()
        end = m.end()
        rest = text[end:]
        upper = word.upper()
        if upper in self.opcodes and (not rest or not rest[0].isalnum()):
            if rest and rest[0] not in " \t":  # 'lda#1': the original needs a blank after the mnemonic
                return Bad(None, (f"a blank is needed after '{word}' [SYNTAX 0]", base + end, 1))
            return self._instruction(None, word, rest, base + end)
        if START_LINE.match(text):
            return Start(None, None)
        after = rest.lstrip()
        if not after:  # (a label alone defines nothing: its name is not made a symbol key)
            hint = self._undocumented_hint(word)
            return Label(word, None) if hint is None else Bad(None, (hint, base, len(word)))
        word = self.key_string(word)  # (a label or a definition's name: the symbol table's key)
        if len(word) > LABEL_FIELD and after[:1] in ("=", "_"):
            return Bad(None, (f"'{word}' is longer than {LABEL_FIELD} characters: the original reads the '=' of a "
                                      f"definition after a {LABEL_FIELD}-character name field (8 characters count) [SYNTAX 1]",
                                      base, len(word)))  # fmt: skip
        if rest[0] not in " \t":  # 'val=5', 'val_5': the original needs a blank after a label
            return Bad(None, (f"a blank is needed after the label '{word}' [SYNTAX {0 if rest[0] == '_' else 1}]", base + end, 1))
        record = self._body(word, after, base + len(text) - len(after))
        if type(record) is Bad and after[0] not in "=_*.'":
            hint = self._undocumented_hint(word)
            if hint:  # 'lax $12' without --cpu 6502i, or 64tass's 'alr #1': say so instead of "unknown mnemonic"
                return Bad(None, (hint, base, len(word)))
            close = self.near_mnemonics(word)
            if close:  # 'ldq #2': the original takes 'ldq' for a label, then stumbles on the operand
                message = record.problem[0]
                syntax = message[message.rindex("[") :] if message.endswith("]") else "[SYNTAX 1]"
                return Bad(None, (f"unknown mnemonic '{word}' (did you mean {' or '.join(close)}?) {syntax}", base, len(word)))
        return record

    def near_mnemonics(self, word: str) -> list[str]:
        """Mnemonics a three-letter word is probably a typo of ('rst' -> RTS, 'ldq' -> LDA, LDX, LDY)."""
        if len(word) != 3 or word.upper() in self.opcodes:
            return []
        import difflib

        upper = word.upper()
        close = difflib.get_close_matches(upper, list(self.opcodes), n=3, cutoff=0.6)
        same_letters = [m for m in self.opcodes if sorted(m) == sorted(upper)]  # 'rst': letters swapped
        return sorted(set(close + same_letters), key=lambda m: (m not in same_letters, close.index(m) if m in close else 9))[:3]

    def _undocumented_hint(self, word: str) -> str | None:
        name = word.upper()
        needs = f" (and needs --cpu {Cpu.NMOS_ILLEGAL})" if "LAX" not in self.opcodes else ""
        if name in ALIASES:
            return f"'{word}' is another name for {ALIASES[name]}: asm6502 uses 64tass's names for the undocumented opcodes{needs}"
        if name in UNDOCUMENTED and name not in self.opcodes:
            return f"{name} is an undocumented NMOS opcode: assemble with --cpu {Cpu.NMOS_ILLEGAL} to use it"
        return None

    def _body(self, label: str | None, text: str, base: int) -> Record:
        """What follows a label (or starts a statement): ``= _ *= .op 'call mnemonic``."""
        first = text[0]
        if first == "=" or first == "_":
            return self._definition(label, first == "_", text[1:], base + 1)
        if first == "*":
            rest = text[1:]
            if rest[:1] == "=":
                return self._expression_record(Origin, label, rest[1:], base + 2)
            return Bad(label, ("'*=' expected (no blank between '*' and '=') [SYNTAX 1]", base, len(text)))
        if first == ".":
            m = _PSEUDO.match(text)
            name = m.group(1).lower()
            op = name[:3]
            args = text[m.end() :]
            args_offset = base + m.end() + len(args) - len(args.lstrip())
            spec = PSEUDO_OPS.get(op)
            if spec is not None and spec.kind == DATA:  # (asm6502/asm/pseudo.py: the method that reads it)
                return getattr(self, spec.decode)(label, op, args.strip(), args_offset, base, m.end())
            return Pseudo(label, None, op, name, args.strip(), args_offset, base, m.end())
        if first == "'":
            m = IDENT.match(text, 1)
            if m is None:
                return Bad(label, ('macro name expected after "\'" [SYNTAX 8]', base, 1))
            args_text = text[m.end() :].strip()
            call_args = tuple(a for a, _ in split_commas(args_text, 0)) if args_text else ()
            return Call(label, None, m.group(), call_args, base + 1)
        m = IDENT.match(text)
        if m is None:
            return Bad(label, (f"unexpected '{first}' after label '{label}' [SYNTAX 1]", base, 1))
        word = m.group()
        rest = text[m.end() :]
        if word.upper() in self.opcodes and (not rest or not rest[0].isalnum()):
            return self._instruction(label, word, rest, base + m.end())
        if label is not None:
            close = self.near_mnemonics(word)  # 'x lad #1': the same hint as without the label
            hint = f"; did you mean {' or '.join(close)}?" if close else ""
            return Bad(label, (f"unknown mnemonic '{word}' (after label '{label}'{hint}) [SYNTAX 1]", base, len(word)))
        return Bad(label, (f"unknown mnemonic '{word}' [SYNTAX 1]", base, len(word)))

    def _expression_at(self, label, text: str, offset: int):
        """(tree, offset of the expression) of the expression ``text`` at ``offset``, or the Bad record that
        reports it."""
        stripped = text.lstrip()
        offset += len(text) - len(stripped)
        if not stripped:
            return Bad(label, ("expression expected [SYNTAX 5]", offset, 1))
        try:
            node = self.operand(stripped)
        except ex.ExprError as exc:
            return Bad(label, (exc.message, offset + exc.offset, exc.length))
        return node, offset

    def _expression_record(self, cls, label, text: str, offset: int):
        found = self._expression_at(label, text, offset)
        if type(found) is Bad:
            return found
        node, offset = found
        return cls(label, node, offset)

    def _definition(self, label, var: bool, text: str, offset: int) -> Record:
        if label is None:
            if not var:  # ('= 5' after '^ ': the same as without the arrow)
                return Pseudo(None, None, "stm", "=", text.strip(), offset, offset - 1, 1)
            return Bad(None, ("a definition needs a name in front [SYNTAX 8]", offset - 1, 1))
        found = self._expression_at(label, text, offset)
        if type(found) is Bad:
            return found
        node, offset = found
        return Define(label, var, node, offset)

    # -- instructions -------------------------------------------------------------

    def _instruction(self, label: str | None, word: str, operand_text: str, end: int) -> Record:
        """``word`` is the mnemonic as typed; ``operand_text`` follows it at offset ``end``."""
        mnemonic = word.upper()
        long_operand = len(operand_text) > OPERAND_LIMIT and keys(operand_text.strip()) > OPERAND_LIMIT
        if long_operand and texty(operand_text):
            return Bad(label, overflow(operand_text, end))
        try:
            operand = self._operand(mnemonic, operand_text)
        except OperandProblem as p:
            operand_stripped = operand_text.strip()
            lead = len(operand_text) - len(operand_text.lstrip())
            if p.offset is None:
                where = (end - len(word), len(word))
            elif p.offset == -1:
                where = (end + lead, max(1, len(operand_stripped)))
            else:
                where = (end + p.offset, p.length)
            return Bad(label, (p.message, *where))
        form, mode, code, zp_code, fixed, prefix, node, expr_offset, lead, length = operand
        unstable = mnemonic in self.unstable or code in self.unstable_codes or zp_code in self.unstable_codes
        shape = self.form(form, code, zp_code, fixed, len(fixed) if form == "fixed" else 1 + _OPERAND_SIZE[mode], prefix, unstable,
                          mnemonic, mode)  # fmt: skip
        record = Insn(label, node, shape, self.offsets(end - len(word), end + lead, length, end + expr_offset))
        if long_operand and self.advice is None:  # a long expression: assembled here, OVERFLOW on the original
            lead = len(operand_text) - len(operand_text.lstrip())
            self.advice = (
                f"an operand of {keys(operand_text.strip())} characters: the original Profi-Ass takes at most {OPERAND_LIMIT} and reports OVERFLOW",
                lead,
                len(operand_text.strip()),
            )
        if self.advice is not None:  # a warning for every use of this statement text (see ``advised``)
            message, offset, advice_length = self.advice
            self.advice = None
            self.advised[id(record)] = (record, message, end + offset, advice_length)
        return record

    def _operand(self, mnemonic: str, operand_text: str):
        operand = operand_text.strip()
        lead = len(operand_text) - len(operand_text.lstrip())
        length = max(1, len(operand))
        form, mode, code, zp_code, expr_text, offset, advice = addressing_form(mnemonic, self.opcodes[mnemonic], operand, lead,
                                                                               mnemonic in self.operandless)  # fmt: skip
        if advice is not None:
            self.advice = advice
        if form == "fixed":
            return form, mode, code, -1, bytes((code,)), "", None, 0, lead, length
        prefix, node, expr_offset = self._operand_expression(expr_text, offset, form)
        return form, mode, code, zp_code, b"", prefix, node, expr_offset, lead, length

    def _operand_expression(self, text: str, offset: int, form: str):
        """(prefix, tree, offset of the expression): an optional < > ! then an expression."""
        stripped = text.lstrip()
        offset += len(text) - len(stripped)
        if not stripped:  # ('lda #' is the original's UNDEF'D STATEMENT: rules/immediate_empty)
            raise OperandProblem("expression expected " + ("[UNDEF'D STATEMENT]" if form == "immediate" else "[SYNTAX 5]"), offset, 1)
        prefix = stripped[0] if stripped[0] in "<>!" else ""
        body = stripped[1:] if prefix else stripped
        offset += len(prefix) + len(body) - len(body.lstrip())
        body = body.lstrip()
        if not body:
            raise OperandProblem("expression expected [SYNTAX 5]", offset, 1)
        while body.endswith(")") and body.count(")") > body.count("("):
            body = body[:-1]  # 'lda #1+2)', 'lda 1)': the original stops at a ')' it did not open (rules/paren_extra_*)
        try:
            node = self.operand(body)
        except ex.ExprError as exc:
            raise OperandProblem(exc.message, offset + exc.offset, exc.length) from None
        return prefix, node, offset

    # -- data -----------------------------------------------------------------------

    def _data_list(self, label, op: str, args: str, args_offset: int, op_offset: int, op_length: int) -> Record:
        """``.byt`` / ``.wor`` items: expressions (manual p. 12); a string is a character constant,
        its first character (``.byt "abc"`` is $41, as the original: data/data_byt_string_long)."""
        if not args:
            return Bad(label, (f".{op} needs at least one value [UNDEF'D STATEMENT]", op_offset, op_length))
        if len(args) > OPERAND_LIMIT and texty(args) and keys(args) > OPERAND_LIMIT:  # (long values alone: accepted)
            return Bad(label, overflow(args, args_offset))
        word = PSEUDO_OPS[op].encode == WORDS
        items: list = []
        items_text = split_commas(args, args_offset)
        expressions = self.expressions
        for number, (item, item_offset) in enumerate(items_text):
            if not item:  # '.byt 1,': UNDEF'D STATEMENT; '.byt ,1', '.byt 1,,2': SYNTAX 5 (rules/byt_*_comma*)
                last = number == len(items_text) - 1
                return Bad(label, ("value expected between commas " + ("[UNDEF'D STATEMENT]" if last else "[SYNTAX 5]"), item_offset, 1))
            if ")" in item and item.count(")") > item.count("(") and '"' not in item:  # '.byt 1)': SYNTAX 6 (rules/paren_extra_byt)
                return Bad(label, (f"unexpected ')' in '{item}' [SYNTAX 6]", item_offset + item.rindex(")"), 1))
            prefix = item[0]
            if prefix == "<" or prefix == ">":
                body = item[1:]
                expr_text = body.lstrip()
                expr_offset = item_offset + 1 + len(body) - len(expr_text)
            else:  # (split_commas gives the items without their blanks)
                prefix = ""
                expr_text = item
                expr_offset = item_offset
            found = (
                expressions.get(expr_text) or self.symbols.get(expr_text) or self._new_expression(expr_text, False)
            )  # (self.operand without its call)
            if type(found) is tuple:
                message, offset, length = found
                return Bad(label, (message, expr_offset + offset, length))
            items += (found, prefix, expr_offset, len(item))
        size = len(items) // 4 * (2 if word else 1)  # (every item is an expression: a byte or a word)
        return Data(label, op, tuple(items), size, op_offset, op_length)

    def _asc(self, label, op: str, args: str, args_offset: int, op_offset: int, op_length: int) -> Record:
        if not (args.startswith('"') and len(args) >= 2):
            return Bad(label, ('.asc expects one string in double quotes: .asc "text" [SYNTAX 5]', args_offset, max(1, len(args))))
        if len(args) > OPERAND_LIMIT and keys(args) > OPERAND_LIMIT:  # the whole operand counts, closing quote
            return Bad(label, overflow(args, args_offset))  # and tail too ('.asc "' + 48 + '"x': rules/asc_tail_*)
        # the string ends at its closing quote and the original ignores the rest of the statement
        # ('.asc "ab"cd' = 41 42, '.asc "ab"x":nop' too: the quote it opens holds ':nop'), an
        # unclosed one runs to the statement's end (rules/asc_tail_*, asc_unclosed_*)
        close = args.find('"', 1)
        body = args[1:close] if close >= 0 else args[1:]
        data, problems = petscii(body, args_offset + 1)
        if problems:
            return Bad(label, problems[0])
        return Data(label, op, (data, "", args_offset, len(args)), len(data), op_offset, op_length)

    def _flp(self, label, op: str, args: str, args_offset: int, op_offset: int, op_length: int) -> Record:
        """``.flp 10,1e8``: BASIC's 5-byte floats, read and rounded by the ROM's FIN ($BCF3)."""
        from asm6502.basic.interpreter.numbers import BasicOverflow, mflpt_after_fin

        if not args:
            return Bad(label, (".flp needs at least one number [SYNTAX 5]", op_offset, op_length))
        items: list = []
        for item, item_offset in split_commas(args, args_offset):
            text = item.upper().encode("ascii", "replace")
            try:
                data, end = mflpt_after_fin(text)
            except BasicOverflow:
                return Bad(label, (f"{item} is too large for a BASIC float [OVERFLOW]", item_offset, len(item)))
            if not item or end != len(text):
                return Bad(label, (f"'{item}' is not a number (.flp takes numbers, not expressions) [SYNTAX 6]", item_offset, max(1, len(item))))
            items += (data, "", item_offset, len(item))
        return Data(label, op, tuple(items), 5 * (len(items) // 4), op_offset, op_length)


def _bad_start(first: str, offset: int, text: str = "") -> Record:  # (text: the statement, which starts with first)
    """A statement starting with a character no statement starts with: SYNTAX 1 (',21', '$12',
    '(1)', '#1', '-1', ...), but 0 for '?' (BASIC's PRINT, a keyword token; rules/start_char_*).  ACME's
    '!byte' and its kin are named with the Profi-Ass way."""
    hint = foreign_hint(_WORD_AFTER.match(text, 1)[0]) if first == "!" and text else None
    said = f": {hint}" if hint else ""
    return Bad(None, (f"unexpected '{first}' at the start of a statement{said} [SYNTAX {0 if first == '?' else 1}]", offset, 1))


_WORD_AFTER = re.compile(r"[A-Za-z0-9]*")

