"""Literal prefilters for regular expressions: the words a pattern cannot match without, so a
text holding none of them is passed over without a regex search. Every needle of every pattern is
found in a text in one pass, once per text. Pure.

A pattern's needles are lower-case strings such that every match contains at least one of them
(in a lower-cased text). A pattern with no such words (a bare digit class, an optional group) has
none, and is always searched.
"""

from __future__ import annotations

import re
import sys
from functools import cached_property
from operator import itemgetter

import ahocorasick

try:  # the parser behind re.compile; its name changed in Python 3.11
    from re import _constants as _c
    from re import _parser as _p
except ImportError:  # pragma: no cover - Python < 3.11 is not supported
    import sre_constants as _c
    import sre_parse as _p

_SHORTEST = 2  # a letter or digit alone filters nothing (a Chinese character or a "?" does)


def needles(pattern: re.Pattern) -> frozenset[str] | None:
    """The words every match of `pattern` holds one of, lower-cased; None when there are none."""
    return _needles(pattern.pattern, pattern.flags)


def _needles(source: str, flags: int) -> frozenset[str] | None:
    """`needles` of a pattern's source, read with the regex parser alone (no compiling)."""
    options = _top_options(source, flags)
    found = _best(options) if options else None
    if not found or any(
        len(word) < _SHORTEST and word.isalnum() and word.isascii() for word in found
    ):
        return None
    return frozenset(found)


def conjuncts(source: str, flags: int) -> tuple[frozenset[str], ...]:
    """Every set of plain words (ASCII letters, then letters or digits) of which a match holds
    one: a match of `\\bopenai\\b.{0,80}\\bthe company's chip` holds "openai", "the company" and
    "chip" alike, so a text lacking any one of them cannot match."""
    options = _top_options(source, flags) or ()
    return tuple(frozenset(words) for words in options if all(map(_PLAIN.fullmatch, words)))


_Read = tuple[tuple[frozenset[str], ...] | None, re.error | None]
_READS: dict[tuple[str, int], _Read] = {}  # every pattern read so far, by (source, flags)
_KEPT: set[tuple[str, int]] = set()  # those already in the store `reads` filled this from


def _read(source: str, flags: int) -> _Read:
    """A pattern read once with the regex parser: the sets of needles of its whole sequence (None:
    it cannot be read), and the error that makes it no pattern (None: none). The parse tree itself
    is not kept."""
    key = (source, flags)
    found = _READS.get(key)
    if found is None:
        found = _READS[key] = _parsed(source, flags)
    return found


def reads() -> dict[str, list | None] | None:
    """The patterns read since `remember`, as JSON for a store kept between processes (reading
    every pattern of the vocabularies costs more than half a second at each start); None when
    there is nothing new. A pattern that is no pattern is never kept: its error is raised anew."""
    known = list(_READS.items())  # one step: another thread may be reading a pattern
    fresh = [key for key, (_, error) in known if error is None and key not in _KEPT]
    if not fresh:
        return None
    _KEPT.update(fresh)
    return {
        f"{int(flags)}:{source}": None if options is None else [sorted(words) for words in options]
        for (source, flags), (options, error) in known
        if error is None
    }


def remember(stored: object) -> int:
    """Take the patterns a store holds (what `reads` gave, read back from JSON); anything not of
    that shape is passed over. The number taken."""
    if not isinstance(stored, dict):
        return 0
    taken = 0
    for key, options in stored.items():
        flags, _, source = key.partition(":") if isinstance(key, str) else ("", "", "")
        if not flags.isdigit() or not _options_shaped(options):
            continue
        entry = (source, int(flags))
        _KEPT.add(entry)
        if entry not in _READS:
            _READS[entry] = (
                None if options is None else tuple(frozenset(words) for words in options),
                None,
            )
            taken += 1
    return taken


def _options_shaped(options: object) -> bool:
    return options is None or (
        isinstance(options, list)
        and all(
            isinstance(words, list) and all(isinstance(w, str) for w in words) for words in options
        )
    )


def _parsed(source: str, flags: int) -> _Read:
    try:
        tree = _p.parse(source, flags & ~re.UNICODE)
    except re.error as exc:
        return None, exc
    except (RecursionError, TypeError, ValueError):
        return None, None
    bad = _look_behind_unfixed(tree)
    if bad:
        return None, re.error(bad, source)
    try:
        return tuple(map(frozenset, _options(tree))), None
    except (RecursionError, TypeError, ValueError):
        return None, None


def checked(source: str, flags: int) -> None:
    """Raise re.error for what `re.compile` would refuse, without compiling: a syntax error, or a
    look-behind of no fixed width (the one error found only when compiling)."""
    error = _read(source, flags)[1]
    if error is not None:
        raise error


def _look_behind_unfixed(items) -> str:
    for op, av in items:
        if op in (_c.ASSERT, _c.ASSERT_NOT):
            direction, sub = av
            if direction < 0 and len(set(sub.getwidth())) > 1:
                return "look-behind requires fixed-width pattern"
            found = _look_behind_unfixed(sub)
        elif op is _c.SUBPATTERN:
            found = _look_behind_unfixed(av[-1])
        elif op is _c.BRANCH:
            found = next(filter(None, map(_look_behind_unfixed, av[1])), "")
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
            found = _look_behind_unfixed(av[2])
        elif op is _c.ATOMIC_GROUP:
            found = _look_behind_unfixed(av)
        elif op is _c.GROUPREF_EXISTS:
            found = _look_behind_unfixed(av[1]) or (av[2] and _look_behind_unfixed(av[2]))
        else:
            found = ""
        if found:
            return found
    return ""


def _top_options(source: str, flags: int) -> tuple[frozenset[str], ...] | None:
    """The sets of needles of a pattern's whole sequence; None: it cannot be read."""
    return _read(source, flags)[0]


def _sequence(items) -> set[str] | None:
    """The best set of needles of a sequence of parsed items: each literal run and each required
    part gives one set; the one whose shortest word is longest wins."""
    options = _options(items)
    return set(_best(options)) if options else None


def _best(options):
    return max(options, key=lambda words: (min(map(len, words)), -len(words)))


_PLAIN = re.compile(r"[a-z][a-z0-9]+")  # normalising makes no such word ("8k" it may)


def _options(items) -> list[set[str]]:
    """The sets of needles of a sequence: one per literal run and per required part."""
    options: list[set[str]] = []
    run: list[str] = []

    def close() -> None:
        if run:
            options.append({"".join(run).lower()})
            run.clear()

    for op, arg in items:
        if op is _c.LITERAL:
            run.append(chr(arg))
            continue
        close()
        found = _required(op, arg)
        if found:
            options.append(found)
    close()
    return options


def _required(op, arg) -> set[str] | None:
    if op is _c.SUBPATTERN:
        return _sequence(arg[-1])
    if op is _c.BRANCH:
        union: set[str] = set()
        for branch in arg[1]:
            found = _sequence(branch)
            if not found:
                return None  # one way to match without a needle: no needles
            union |= found
        return union
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT) and arg[0] >= 1:
        return _sequence(arg[2])
    if op is _c.ATOMIC_GROUP:
        return _sequence(arg)
    return None  # a class, any character, a look-around, a back-reference: no literal


class Alternatives:
    """Patterns tried as one alternation, used like a compiled pattern. Those whose needles a text
    lacks cannot match there, so they are left out of the search: the matches are the same, the
    work is less."""

    def __init__(self, patterns: list[str] | tuple[str, ...], flags: int = re.I):
        self.parts = tuple(patterns)
        self.pattern = "|".join(f"(?:{p})" for p in self.parts)
        self.flags = flags if flags & re.ASCII else flags | re.UNICODE
        for part in self.parts:  # refused now, as compiling would, though compiled when searched
            checked(part, flags)
        self.words = tuple(_needles(p, flags) for p in self.parts)
        # every part's needles at once: a text with none of them cannot match at all
        self.known = frozenset().union(*(words for words in self.words if words))
        self.union = None if None in self.words else self.known
        self.conjuncts = tuple(conjuncts(p, flags) for p in self.parts)
        # the needles a raw text can be asked for: none with a space normalising may add
        self._raw_words = tuple(
            None
            if w is None or any(x != x.strip() or (" " in x and not x.isascii()) for x in w)
            else w
            for w in self.words
        )
        self._subsets: dict[tuple[int, ...], re.Pattern] = {}
        self._kept: dict[frozenset[str], tuple[int, ...]] = {}
        self._single: dict[int, re.Pattern] = {}
        self._once: dict[tuple[int, ...], int] = {}
        self._raw: _RawTest | None = None  # built when first asked
        _learn(self.known)

    @cached_property
    def full(self) -> re.Pattern:
        """The whole alternation, compiled when first searched whole."""
        return re.compile(self.pattern, self.flags)

    def absent(self, found: frozenset[str]) -> bool:
        """Can no part match a text whose needles (`present`) are `found`? One set operation, for
        callers that ask many alternations about one text."""
        return self.union is not None and self.union.isdisjoint(found)

    def may_hold(self, lowered: str, found: frozenset[str] | None = None) -> bool:
        """Could some part match a text whose NFKC, lower-cased form is `lowered`? False only when
        every part lacks one of the words it needs: a quick test on raw text before normalising,
        which makes no word of letters (it may put spaces between scripts). `found`: the text's
        words among at least `raw_needles()`, when the caller found them in one pass for many."""
        return self._raw_test().may_hold(lowered, found)

    def raw_needles(self) -> frozenset[str]:
        """Every word `may_hold` looks for."""
        return self._raw_test().words

    def _raw_test(self) -> _RawTest:
        if self._raw is None:
            self._raw = _RawTest(self._raw_words, self.conjuncts)
        return self._raw

    def kept(self, lowered: str) -> tuple[int, ...]:
        """The indices of the parts that may match this lower-cased text."""
        found = present(lowered)
        if self.union is not None and self.union.isdisjoint(found):
            return ()  # most texts: no set is built
        hits = self.known & found
        held = self._kept.get(hits)
        if held is None:
            held = tuple(
                i
                for i, words in enumerate(self.words)
                if words is None or not words.isdisjoint(hits)
            )
            if len(self._kept) >= _HELD:
                self._kept.clear()
            self._kept[hits] = held
        return held

    def narrowed(self, lowered: str) -> re.Pattern | None:
        """The alternation of the parts that may match this lower-cased text; None: none may."""
        keep = self.kept(lowered)
        if not keep:
            return None
        if len(keep) == len(self.parts):
            return self.full
        found = self._subsets.get(keep)
        if found is not None:
            return found
        if self._costly(keep):  # long parts: never compiled together
            return _Parts(tuple(self._part(i) for i in keep), self._subset, keep)
        if self._asked(keep):  # not asked often yet: the matches are the same without compiling
            if len(keep) <= _FEW:
                return _Parts(tuple(self._part(i) for i in keep), self._subset, keep)
            return self.full  # the parts left out cannot match this text
        return self._subset(keep)

    def _costly(self, keep: tuple[int, ...]) -> bool:
        """Would compiling these parts together cost more than searching them one by one for good?
        Compiling grows with the source's length; long parts are never worth it."""
        return sum(len(self.parts[i]) for i in keep) >= _LONG

    def _asked(self, keep: tuple[int, ...]) -> bool:
        """Are these parts still to be searched one by one? A set of parts asked for often is
        worth compiling together."""
        times = self._once.get(keep, 0)
        if times < _OFTEN:
            if len(self._once) >= _HELD:
                self._once.clear()
            self._once[keep] = times + 1
        return times < _OFTEN

    def _part(self, i: int) -> re.Pattern:
        found = self._single.get(i)
        if found is None:
            found = self._single[i] = re.compile(self.parts[i], self.flags)
        return found

    def _subset(self, keep: tuple[int, ...]) -> re.Pattern:
        """The compiled alternation of these parts, for what `_Parts` cannot do alone."""
        found = self._subsets.get(keep)
        if found is None:
            if len(self._subsets) >= _HELD:
                self._subsets.clear()  # a long-running service meets ever new sets of parts
            found = self._subsets[keep] = re.compile(
                "|".join(f"(?:{self.parts[i]})" for i in keep), self.flags
            )
        return found

    def _for(self, text: str, lowered: str | None) -> re.Pattern | None:
        return self.narrowed(text.lower() if lowered is None else lowered)

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize, *, lowered=None):
        pattern = self._for(text, lowered)
        return pattern.search(text, pos, endpos) if pattern is not None else None

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize, *, lowered=None):
        pattern = self._for(text, lowered)
        return pattern.match(text, pos, endpos) if pattern is not None else None

    def fullmatch(self, text: str, pos: int = 0, endpos: int = sys.maxsize, *, lowered=None):
        pattern = self._for(text, lowered)
        return pattern.fullmatch(text, pos, endpos) if pattern is not None else None

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize, *, lowered=None):
        pattern = self._for(text, lowered)
        return pattern.finditer(text, pos, endpos) if pattern is not None else iter(())

    def findall(self, text: str, pos: int = 0, endpos: int = sys.maxsize, *, lowered=None):
        pattern = self._for(text, lowered)
        return pattern.findall(text, pos, endpos) if pattern is not None else []

    def sub(self, repl, text: str, count: int = 0, *, lowered=None) -> str:
        pattern = self._for(text, lowered)
        return pattern.sub(repl, text, count) if pattern is not None else text


class _RawTest:
    """`Alternatives.may_hold`: every part's words found in one pass, then only the parts whose
    needles are there (or that have none) asked whether their other words are there too."""

    __slots__ = ("finder", "conjuncts", "free", "open", "by_word", "words")

    def __init__(self, words: tuple, conjuncts: tuple[tuple[frozenset[str], ...], ...]):
        self.conjuncts = conjuncts
        self.free = any(w is None and not sets for w, sets in zip(words, conjuncts, strict=True))
        self.open = tuple(i for i, w in enumerate(words) if w is None)
        by_word: dict[str, list[int]] = {}
        for i, w in enumerate(words):
            for word in w or ():
                by_word.setdefault(word, []).append(i)
        self.by_word = {word: tuple(parts) for word, parts in by_word.items()}
        self.words = frozenset(by_word).union(*(w for c in conjuncts for w in c))
        self.finder = automaton(self.words)

    def may_hold(self, lowered: str, found: frozenset[str] | None = None) -> bool:
        if self.free:
            return True  # a part that needs no word at all
        if found is None:
            found = (
                frozenset(map(_WORD, self.finder.iter(lowered)))
                if len(self.finder)
                else frozenset()
            )
        asked = {i for word in found for i in self.by_word.get(word, ())}.union(self.open)
        return any(all(not s.isdisjoint(found) for s in self.conjuncts[i]) for i in asked)


class Pattern:
    """One pattern, used like a compiled one and compiled when first searched: a vocabulary holds
    hundreds, and a poll whose texts never reach one need not compile it. What compiling would
    refuse is refused when it is made."""

    __slots__ = ("pattern", "flags", "_compiled")

    def __init__(self, pattern: str, flags: int = re.I):
        checked(pattern, flags)
        self.pattern, self.flags, self._compiled = pattern, flags, None

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize):
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled.search(text, pos, endpos)


class _Parts:
    """A few parts of an alternation searched one by one, each compiled once, instead of compiling
    their alternation for every new set of parts a text keeps. The leftmost match wins, and at one
    place the earliest part, as in the alternation itself. What one-by-one search cannot give
    alike (an empty match, a template naming groups, `findall`'s groups) goes to the alternation."""

    __slots__ = ("parts", "_joined", "_keep")

    def __init__(self, parts: tuple[re.Pattern, ...], joined, keep: tuple[int, ...]):
        self.parts, self._joined, self._keep = parts, joined, keep

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize):
        best = None
        for part in self.parts:
            found = part.search(text, pos, endpos)
            if found is not None and (best is None or found.start() < best.start()):
                best = found
        return best

    def match(self, text: str, pos: int = 0, endpos: int = sys.maxsize):
        return self._first("match", text, pos, endpos)

    def fullmatch(self, text: str, pos: int = 0, endpos: int = sys.maxsize):
        return self._first("fullmatch", text, pos, endpos)

    def _first(self, how: str, text: str, pos: int, endpos: int):
        """The earliest part that matches here, as the alternation tries them."""
        for part in self.parts:
            found = getattr(part, how)(text, pos, endpos)
            if found is not None:
                return found
        return None

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize):
        found = []
        while pos <= min(endpos, len(text)):
            hit = self.search(text, pos, endpos)
            if hit is None:
                break
            if hit.end() == hit.start():  # an empty match: the alternation's own rules apply
                return iter(found + list(self._joined(self._keep).finditer(text, pos, endpos)))
            found.append(hit)
            pos = hit.end()
        return iter(found)

    def findall(self, text: str, pos: int = 0, endpos: int = sys.maxsize):
        return self._joined(self._keep).findall(text, pos, endpos)

    def sub(self, repl, text: str, count: int = 0) -> str:
        if not callable(repl) and "\\" in repl:
            return self._joined(self._keep).sub(repl, text, count)
        out, last = [], 0
        for n, hit in enumerate(self.finditer(text)):
            if count and n >= count:
                break
            out += [text[last : hit.start()], repl(hit) if callable(repl) else repl]
            last = hit.end()
        return "".join(out) + text[last:]


_OFTEN = 64  # times a set of parts is searched without it before its alternation is compiled
_FEW = 8  # at most this many parts kept: searched one by one rather than compiled together
_LONG = 2000  # characters of pattern source past which a set of parts is never compiled together
_HELD = 4096  # texts (and needle sets) remembered before starting afresh
_KNOWN: set[str] = set()  # every needle of every Alternatives made so far
# the automaton of every known needle, built when first asked for;
# a text's needles are remembered with the automaton that found them, so needles learned later
# (rules loaded while another thread reads) are never missed by a stale entry
_FINDER: list = [None]
_PRESENT: dict[str, tuple[object, frozenset[str]]] = {}


def _learn(words: frozenset[str]) -> None:
    """Note new needles; the automaton is built again when next asked for, not per pattern."""
    if not words <= _KNOWN:
        _KNOWN.update(words)
        _FINDER[0] = None


def present(lowered: str) -> frozenset[str]:
    """The known needles in a lower-cased text, found in one pass (Aho-Corasick) and remembered:
    a sentence is asked about by many alternations, each of which only asks which of its own
    needles are among these."""
    finder = _finder()
    held = _PRESENT.get(lowered)
    if held is not None and held[0] is finder:
        return held[1]
    found = frozenset(map(_WORD, finder.iter(lowered))) if len(finder) else frozenset()
    if len(_PRESENT) >= _HELD:
        _PRESENT.clear()
    _PRESENT[lowered] = (finder, found)
    return found


def _finder() -> ahocorasick.Automaton:
    finder = _FINDER[0]
    if finder is None:
        finder = _FINDER[0] = automaton(frozenset(_KNOWN))
    return finder


_WORD = itemgetter(1)  # an automaton's hit is (end, word)


def forget() -> None:
    """Empty the texts remembered (a benchmark times each pass on texts it has not seen)."""
    _PRESENT.clear()


def automaton(words: frozenset[str]) -> ahocorasick.Automaton:
    """An Aho-Corasick automaton that finds these words, each hit giving (end, word)."""
    machine = ahocorasick.Automaton()
    for word in words:
        machine.add_word(word, word)
    if words:
        machine.make_automaton()
    return machine
