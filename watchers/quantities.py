"""Numbers with units in prose, in English and Chinese: `79.8 million tokens per second per
megawatt`, `8.54万 tokens/s/kW`, `0.74 毫秒`, `1.5–1.9×`, `78 %`. Each becomes a value in the
canonical unit of its quantity; which claim it measures is for the story's data to say. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# canonical unit of each quantity, and how a claim's unit relates to it
UNITS = {
    "tok/s/kW": ("throughput-per-power", 1.0),
    "tok/s/user": ("throughput-per-user", 1.0),
    "s": ("time", 1.0),
    "ms": ("time", 1e-3),
    "×": ("ratio", 1.0),
    "× lower": ("ratio", 1.0),
    "%": ("percent", 1.0),
    "W": ("power", 1.0),
    "PFLOPS": ("compute", 1.0),
    "months": ("months", 1.0),
}

NUMBER = re.compile(
    r"(?<![A-Za-z0-9_.])(?:(?<!\d,)|(?!\d{3}(?![\d.])))(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?:\s*(?P<m>million|mn|billion|bn|thousand|k(?![a-z])|m(?=\s*tok)|M(?![a-zA-Z])|万|亿|千(?!瓦)|百万))?",
    re.I,
)
MULTIPLIER = {
    "k": 1e3, "thousand": 1e3, "千": 1e3, "m": 1e6, "million": 1e6, "mn": 1e6, "百万": 1e6,
    "billion": 1e9, "bn": 1e9, "万": 1e4, "亿": 1e8,
}  # fmt: skip
DASH = r"\s*(?:–|-|—|~|〜|to|至|到|(?<=[\dx×倍%])\s+and(?=\s))\s*"  # "and": only after "between"
RANGE = re.compile(
    rf"(?<![A-Za-z0-9_.])(?:(?<!\d,)|(?!\d{3}(?![\d.])))(?P<lo>\d+(?:\.\d+)?)\s*(?:[x×倍%])?{DASH}(?P<hi>\d+(?:\.\d+)?)\s*(?P<u>x\b|×|倍|times\b|%|percent)",
    re.I,
)
# a span of multiples said as a factor: "cut latency by a factor of between 1.5 and 2.9"
FACTOR_RANGE = re.compile(
    r"\b(?:by\s+)?a\s+factor\s+of\s+(?:between\s+)?(?:about\s+|roughly\s+|some\s+)?"
    r"(?P<lo>\d+(?:\.\d+)?)\s*(?:and|to|-|–|—)\s*(?P<hi>\d+(?:\.\d+)?)(?![\d.])",
    re.I,
)
TOKENS = r"(?:mixed\s+|output\s+|混合\s*)?(?:tok(?:en)?s?|个?\s*token|个?\s*tokens)"
PER_SECOND = (
    r"(?:\s*/\s*s(?:ec)?\b|\s*(?:per|a|each|every)\s+second|\s*/\s*秒|每秒|\s*per\s*sec\b|/s)"
)
# tokens counted over a minute are a sixtieth of them a second: "4.7 million tokens a minute",
# "一分钟下来能收到约 7.87 万个 token"
PER_MINUTE = r"(?:\s*/\s*min\b|\s*(?:per|a|each|every)\s+minute\b|\s*/\s*分钟|\s*每分钟)"
PER_HOUR = r"(?:\s*/\s*h(?:r|our)?\b|\s*(?:per|an|a|each|every)\s+hour\b|\s*/\s*小时|\s*每小时)"
MINUTE_BEFORE = re.compile(
    r"(?:每|一|1)\s*分钟(?:下来|之内|内|里)?|\b(?:per|a|each|every|in a|in one)\s+minute\b", re.I
)
HOUR_BEFORE = re.compile(
    r"(?:每|一|1)\s*(?:个)?小时(?:下来|之内|内|里)?|\b(?:per|an|each|every|in an|in one)\s+hour\b",
    re.I,
)
PER_KW = r"(?:\s*/\s*kw\b|\s*(?:(?:for|in)\s+)?(?:per|a|each|every)\s+(?:rated\s+|nameplate\s+)?(?:kw|kilowatt)\b|\s*每千瓦|/千瓦)"
PER_MW = (
    r"(?:\s*/\s*mw\b|\s*(?:(?:for|in)\s+)?(?:per|a|each|every)\s+(?:rated\s+|nameplate\s+)?(?:mw|megawatt)\b|\s*每兆瓦|/兆瓦"
    # "81.2 million tokens per second through a megawatt's worth of accelerators"
    r"|\s*(?:through|from|out of|on)\s+(?:a|one|each|every)\s+megawatt(?:['’]s)?(?:\s+worth)?\b)"
)
# energy rather than power: tokens for every kilowatt-hour are a kilowatt's tokens over an hour
# (and a megawatt-hour's a thousand kilowatts' over an hour)
PER_KWH = (
    r"(?:\s*/\s*kwh\b|\s*(?:(?:for|in)\s+)?(?:per|a|each|every)\s+(?:kilowatt[- ]hours?|kwh)\b"
    r"|\s*每(?:度电|千瓦时)|/千瓦时)"
)
PER_MWH = (
    r"(?:\s*/\s*mwh\b|\s*(?:(?:for|in)\s+)?(?:per|a|each|every)\s+(?:megawatt[- ]hours?|mwh)\b"
    r"|\s*每兆瓦时|/兆瓦时)"
)
PER_W = r"(?:\s*/\s*w\b|\s*(?:(?:for|in)\s+)?(?:per|a|each|every)\s+(?:rated\s+|nameplate\s+)?(?:w|watt)\b|\s*每瓦|/瓦)"
PER_J = r"(?:\s*/\s*j\b|\s*(?:(?:for|in)\s+)?(?:per|a|each|every)\s+(?:rated\s+|nameplate\s+)?joule\b|\s*每焦(?:耳)?)"
PER_USER = r"(?:\s*/\s*user\b|\s*(?:per|a|each|every)\s+user\b|\s*(?:for|to) (?:a|one|each) (?:single |lone |solitary )?(?:(?!(?:to|for|of|in|on|per|and)\b)[\w.-]+\s+){0,3}?user\b|\s*(?:/\s*)?(?:每)?用户|\s*per[- ]user)"
THROUGHPUT = rf"{TOKENS}(?:\s+generated)?{PER_SECOND}?"
# a workload's size is no throughput: "8k tokens in and 1k out", "8k tokens of input"
NOT_WORKLOAD = (
    r"(?!\s+(?:in|out|of\s+(?:input|output|prompt|context)|input|output|prompt|context)\b"
    r"|\s*(?:输入|输出|上下文))"
)
# (not "1,000 output tokens", a workload's size: output throughput says per second)
TOKENS_ALONE = rf"(?!output\s){TOKENS}\b(?!\s*(?:per|/)\s*(?:kw|mw|w|user)\b){NOT_WORKLOAD}"
# tokens with no time said after them ("7.87 万个 token"): a minute said before may be theirs
ALONE = re.compile(rf"^\s*{TOKENS_ALONE}", re.I)
# units directly after a number, most specific first: (quantity, factor to canonical, pattern)
AFTER = [
    ("throughput-per-power", 1 / 3600, re.compile(rf"^\s*{THROUGHPUT}?{PER_KWH}", re.I)),
    ("throughput-per-power", 1 / 3_600_000, re.compile(rf"^\s*{THROUGHPUT}?{PER_MWH}", re.I)),
    ("throughput-per-power", 1.0, re.compile(rf"^\s*(?:{THROUGHPUT})?{PER_KW}", re.I)),
    ("throughput-per-power", 1e-3, re.compile(rf"^\s*(?:{THROUGHPUT})?{PER_MW}", re.I)),
    ("throughput-per-power", 1e3, re.compile(rf"^\s*(?:{THROUGHPUT})?(?:{PER_W}|{PER_J})", re.I)),
    ("throughput-per-user", 1.0, re.compile(rf"^\s*{THROUGHPUT}{PER_USER}", re.I)),
    ("throughput", 1 / 60, re.compile(rf"^\s*{TOKENS}{PER_MINUTE}", re.I)),
    ("throughput", 1 / 3600, re.compile(rf"^\s*{TOKENS}{PER_HOUR}", re.I)),
    ("throughput", 1.0, re.compile(rf"^\s*{TOKENS}{PER_SECOND}", re.I)),
    ("throughput", 1.0, ALONE),
    ("time", 1e-6, re.compile(r"^\s*(?:µs|μs|us|microseconds?|微秒)(?![a-z])", re.I)),
    ("time", 1e-3, re.compile(r"^\s*(?:ms|millisec(?:ond)?s?|毫秒)(?![a-z])", re.I)),
    ("time", 1.0, re.compile(r"^\s*(?:s|secs?|seconds?|秒)(?![a-z/]|钟内)", re.I)),
    ("ratio", 1.0, re.compile(r"^\s*(?:x\b|×|倍|times\b|-fold)", re.I)),
    ("percent", 1.0, re.compile(r"^\s*(?:%|percent\b|per cent\b|个百分点)", re.I)),
    ("compute", 1.0, re.compile(r"^\s*(?:pflops|pflop/s|petaflops)\b", re.I)),
    ("compute", 1e-3, re.compile(r"^\s*(?:tflops|tflop/s|teraflops)\b", re.I)),
    ("power", 1e3, re.compile(r"^\s*(?:kw|kilowatts?|千瓦)(?![a-z/])", re.I)),
    ("power", 1.0, re.compile(r"^\s*(?:w|watts?|瓦)(?![a-z/])", re.I)),
    ("months", 1.0, re.compile(r"^\s*(?:months?|个月)", re.I)),
]
# energy for each token: "55 millijoules per token", "0.055 J/token" (its inverse is tokens per joule)
ENERGY_PER_TOKEN = re.compile(
    r"\s*(?P<u>millijoules?|mj|joules?|j)\b"
    r"(?P<per>\s*(?:/|per|a|each|for each|for every)\s*(?:generated\s+|output\s+)?token\b)?",
    re.I,
)
TOKEN_COST_BEFORE = re.compile(
    r"\b(?:each|every|per|a|one)\s+(?:[\w-]+\s+){0,3}?tokens?\s+(?:cost|costs|took|takes|used|uses|needed"
    r"|needs|consumed|consumes|burned|burns|drew)\s+(?:about\s+|roughly\s+|around\s+|some\s+|~)?$",
    re.I,
)
# a per-power or per-user denominator said before the number (每千瓦可以处理约1.23万 tokens/s)
BEFORE = [
    ("throughput-per-power", 1 / 3600, re.compile(r"(?:per|each|every|a)\s+(?:kilowatt[- ]hour|kwh)\b|每(?:度电|千瓦时)", re.I)),
    ("throughput-per-power", 1.0, re.compile(r"(?:per|each|every|a)\s+(?:rated\s+|nameplate\s+)?(?:kw|kilowatt)\b(?![- ]hour)|每千瓦(?!时)|/kw\b", re.I)),
    ("throughput-per-power", 1 / 3_600_000, re.compile(r"(?:per|each|every|a)\s+(?:megawatt[- ]hour|mwh)\b|每兆瓦时", re.I)),
    ("throughput-per-power", 1e-3, re.compile(r"(?:per|each|every|a)\s+(?:rated\s+|nameplate\s+)?(?:mw|megawatt)\b(?![- ]hour)|每兆瓦(?!时)", re.I)),
    ("throughput-per-power", 1e3, re.compile(r"(?:per|each|every|a)\s+(?:rated\s+|nameplate\s+)?(?:joule|watt)\b|每焦(?:耳)?|每瓦(?!时)", re.I)),
    ("throughput-per-user", 1.0, re.compile(r"per[- ](?:1[- ]|one[- ])?user|single[- ](?:user|stream)|\b(?:one|a single|a lone|lone)\s+(?:[\w.-]+\s+){0,3}?user\b|\b(?:one|a single|a lone) stream (?:alone|by itself|on its own)\b|每(?:个|一个?|1个?)?用户|单用户|单流|per stream|(?:只放|只有|仅)一个用户|(?:一个|单个)用户独占|(?:一个|单个|只有一个)用户单独(?:使用|占用|用|跑)|单个用户|独占整机|\b(?:one|a single|a lone) user (?:has|had|gets|got|having) (?:the|a) (?:whole )?(?:machine|system|chip|box|board|node) to (?:itself|themselves|himself|herself)\b|(?:一条|单条|一个)请求独占|独占整(?:套|台|个)(?:系统|机器)|单路(?:会话|对话|请求)?|单个?会话|一路对话|\b(?:a single|one|a lone) (?:conversation|chat|session)\b"
        # one request served at a time: "with one request in flight at a time", "batch size 1"
        r"|\b(?:one|a single|1) (?:request|query|prompt|stream|session|sequence)s? (?:in flight |outstanding |active |running )?at a time\b|\b(?:one|a single) (?:request|query|stream|sequence) in flight\b|\bbatch[- ]size (?:of )?1(?![\d,.])|\bconcurrency (?:of )?1(?![\d,.])", re.I)),
]  # fmt: skip
PAIR = re.compile(r"^\s*(?:vs\.?|versus|对|比|against|over|compared (?:with|to))\s*", re.I)
COMPARATOR_BEFORE = re.compile(
    # (not a span: "ranged from 1.8 to 3.9 times", "anywhere from")
    r"(?:vs\.?|versus|对|比|against|compared (?:with|to)|relative to"
    r"|(?<!\brange )(?<!\branges )(?<!\branged )(?<!\branging )(?<!\bvaried )(?<!\bvaries )(?<!\banywhere )(?<!\bspans )(?<!\bspanned )from"
    r"|从|由|than|instead of)\s*(?:the\s+)?(?:\w+'s\s+)?$"
    # the second of a pair on the other side: "against 1.80 and 5.31 seconds"
    r"|(?:vs\.?|versus|对|比|against|compared (?:with|to))\s*[\d.,]+\s*(?:and|,|、|和)\s*$",
    re.I,
)


# the other side's own figure: "相较辉达 GB200 的每千瓦约 4.5 万", "比 GB300 的单用户 127"
COMPARED_OWN = re.compile(
    r"(?:相较于?|相比于?|比起?|较)[^，,。；;]{1,14}的\s*(?:每千瓦|每兆瓦|每瓦|单用户|每用户)?\s*"
    r"(?:约|近|仅|只有|为|是|达)?\s*$"
)


# a bound is not a reading: "sub-40%", "under 550 W", "不到 40%", "至少 8 万"
BOUND_BEFORE = re.compile(
    r"(?:\bsub-|(?<!\bjust )(?<!\bslightly )(?<!\ba little )\b(?:under|below|less than|fewer than|more than|at least|at most|upwards of|north of"
    r"|south of|above|over|past|beyond|in excess of)\s+|不到|不足|低于|高于|超过|至少|最多)\s*$",
    re.I,
)


@dataclass(frozen=True)
class Quantity:
    start: int  # offsets in the sentence
    end: int
    value: float | list[float]  # in the quantity's canonical unit
    quantity: str  # throughput-per-power, throughput-per-user, time, ratio, ratio-range, ...
    comparator: bool  # the second figure of a pair, or after "vs", "from", "against"


def _spans(sentence: str):
    """(match, kind) of each span of multiples or percentages: "1.5–1.9×", "between 1.8 and 3.9
    times", "by a factor of between 1.5 and 2.9"."""
    for match in RANGE.finditer(sentence):
        if " and " in match.group(0) and not re.search(
            r"between\s*$", sentence[: match.start()], re.I
        ):
            continue  # "X and Y times" is a range only as "between X and Y"
        unit = match.group("u").lower()
        yield match, "percent-range" if unit in ("%", "percent") else "ratio-range"
    for match in FACTOR_RANGE.finditer(sentence):
        yield match, "ratio-range"


def to_number(digits: str, multiplier: str | None) -> float:
    value = float(digits.replace(",", ""))
    if multiplier:
        value *= MULTIPLIER.get(multiplier if multiplier in MULTIPLIER else multiplier.lower(), 1)
    return value


@lru_cache(maxsize=4096)
def quantities(sentence: str) -> tuple[Quantity, ...]:
    """Every number with a unit in the sentence, ranges first (their ends are not numbers alone).
    Cached: a sentence is read once per subject and per figure."""
    out: list[Quantity] = []
    taken: list[tuple[int, int]] = []
    for match, kind in _spans(sentence):
        lo, hi = float(match.group("lo")), float(match.group("hi"))
        if lo <= hi and not any(s <= match.start("lo") < e for s, e in taken):
            before = sentence[max(0, match.start() - 16) : match.start()]
            out.append(
                Quantity(match.start(), match.end(), [lo, hi], kind, _after_comparator(before))
            )
            taken.append((match.start(), match.end()))
    # the last per-user or per-power unit: (quantity, factor, where it ends, its figure's value)
    denominated: tuple[str, float, int, float] | None = None
    bare: list[re.Match] = []  # numbers with no unit of their own since the last with one
    for match in NUMBER.finditer(sentence):
        if any(s <= match.start() < e for s, e in taken):
            continue
        found = _unit(sentence, match)
        if found is None:
            bare.append(match)
            continue
        quantity, factor, end = found
        number = to_number(match.group("n"), match.group("m"))
        if (
            quantity == "throughput"
            and denominated
            and _carries(sentence, denominated, match, number)
        ):
            quantity, factor = denominated[:2]  # "单用户…为 742 token/s，在 Kimi 上为 668 token/s"
        # (an energy per token, a negative factor, carries to nothing after it)
        if quantity.startswith("throughput-per") and factor > 0:
            denominated = (quantity, factor, end, number * factor)
        # energy for each token is the inverse of tokens for each unit of energy
        value = (-factor / number if number else 0.0) if factor < 0 else number * factor
        # the other side of a comparison, or a difference ("38 tok/s slower than OpenAI's 700"):
        # not a reading either way
        aside = _comparator(sentence, match) or (
            quantity in ABSOLUTE and _difference(sentence, match.start(), end)
        )
        if not aside and out and out[-1].comparator and out[-1].end <= match.start():
            # "against 1.80 s and 1.87 ms on GB200": the second of the comparison's pair
            aside = bool(PAIR_AND.fullmatch(sentence, out[-1].end, match.start()))
        out.append(Quantity(match.start(), end, round(value, 9), quantity, aside))
        if factor > 0 and quantity in ABSOLUTE:
            # "GPT-OSS 120B 82,100, DeepSeek R1 18,800 and Kimi K2.5 17,500 tokens/s/kW": the
            # list's unit, said once at its end, is every figure's
            for earlier in _listed_before(sentence, bare, match):
                value = to_number(earlier.group("n"), earlier.group("m")) * factor
                aside = _comparator(sentence, earlier)
                out.append(
                    Quantity(earlier.start(), earlier.end(), round(value, 9), quantity, aside)
                )
        bare = []
    out.sort(key=lambda q: q.start)
    return _relative(sentence, _shares_taken(sentence, out))


# between two figures of a list: a separator, then the next one's label ("、DeepSeek R1 ",
# ", DeepSeek R1 ", " and Kimi K2.5 "); a list without labels is left to "respectively"
LIST_GAP = re.compile(
    r"\s*(?:[,，、;；]\s*(?:and\s+|和|与|及|以及)?|(?:and|和|与|及|以及)\s*)"
    r"(?P<label>[A-Za-z][\w.+-]*(?:\s+[A-Za-z0-9][\w.+-]*){0,3})\s*(?:为|是|[:：=])?\s*",
    re.I,
)


def _listed_before(sentence: str, bare: list[re.Match], last: re.Match) -> list[re.Match]:
    """The numbers without a unit that run up to `last` as one list, each gap a separator and a
    label: they share the unit `last` has."""
    out: list[re.Match] = []
    start = last.start()
    for earlier in reversed(bare):
        gap = LIST_GAP.fullmatch(sentence, earlier.end(), start)
        if gap is None or not any(c.isupper() or c.isdigit() for c in gap.group("label")):
            break  # (a label is a name: "DeepSeek R1", "GB300", not "some 6 %")
        out.append(earlier)
        start = earlier.start()
    return out


RELATIVE = "relative"  # a kind of quantity: its value is a factor on the owner's published figure


def _relative(sentence: str, found: tuple[Quantity, ...]) -> tuple[Quantity, ...]:
    """A figure said as a change from, or a share of, the owner's published one: "about six per
    cent lower than the figure OpenAI put in its August chart" (0.94 of it), "比官方低了约 10%",
    "打了个九五折" (0.95 of it), "91 percent of the throughput OpenAI published"."""
    out = []
    for quantity in found:
        if quantity.quantity != "percent" or quantity.comparator or not 0 < quantity.value < 100:
            out.append(quantity)
            continue
        share = quantity.value / 100
        after = RELATIVE_AFTER.match(sentence, quantity.end)
        before = RELATIVE_BEFORE.search(sentence, max(0, quantity.start - 40), quantity.start)
        of = SHARE_OF_PUBLISHED.match(sentence, quantity.end)
        if after or before:
            lower = (after or before).group("lower") is not None
            factor, end = (
                (1 - share) if lower else (1 + share),
                after.end() if after else quantity.end,
            )
        elif of:
            factor, end = share, of.end()
        else:
            out.append(quantity)
            continue
        out.append(Quantity(quantity.start, end, round(factor, 9), RELATIVE, False))
    for discount in DISCOUNT.finditer(sentence):  # "打了个九五折": 0.95 of it
        digits = "".join(str(CN_DIGITS.index(c)) for c in discount.group("d"))
        factor = int(digits) / (10 ** len(digits))
        if 0.5 <= factor < 1:
            out.append(Quantity(discount.start(), discount.end(), factor, RELATIVE, False))
    return tuple(sorted(out, key=lambda q: q.start))


# what the owner published, said after a change from it: "than the figure OpenAI put in its
# August chart", "than OpenAI's", "below the official number"
PUBLISHED = (
    r"(?:the\s+|its\s+)?(?:(?:figure|number|result|value|claim|score|one)s?\s+(?:that\s+)?"
    r"(?:openai|the company|it|they)\s+(?:put|published|posted|gave|reported|claimed|listed|quoted)"
    r"|openai['’]s\b|what\s+openai\b|(?:official|published|claimed|advertised|headline|launch)\b"
    r"|august['’]s\b)"
)
RELATIVE_AFTER = re.compile(
    r"\s*(?:(?P<lower>lower|less|below|under|short of|down)|higher|more|above|over|up)\s+"
    rf"(?:than|on|from|against|versus|vs\.?)?\s*{PUBLISHED}",
    re.I,
)
RELATIVE_BEFORE = re.compile(
    r"(?:(?:比|较)(?:官方|OpenAI|原厂|厂商)(?:在?\s*8\s*月)?(?:公布|给出|宣称|发布|公开)?的?"
    r"(?:数字|成绩|数据|结果|数值|口径)?\s*(?:(?P<lower>低|少|下降|降低|慢)|高|多|上升|提高|快)"
    r"|(?:(?P<low>低)|高)于(?:官方|OpenAI)(?:公布|给出|宣称|发布)?的?(?:数字|成绩|数据|结果|数值)?)"
    r"了?\s*(?:约|大约|近|将近|接近|不到|超过)?\s*$",
    re.I,
)
SHARE_OF_PUBLISHED = re.compile(
    r"\s+of\s+(?:the\s+)?(?:[\w’'-]+\s+){0,6}?(?:openai|the company)\s+(?:published|posted|reported"
    r"|claimed|gave|put out|listed)\b|\s+of\s+(?:openai['’]s|the official|the published|the claimed"
    r"|the advertised|august['’]s)\b",
    re.I,
)


def measure_named(sentence: str, start: int, end: int) -> str | None:
    """The kind of quantity the words nearest a unitless figure name ("throughput per kilowatt
    came out 6 % lower", "单用户速度比官方低了约 10%"); before it first, then after it."""
    before = [
        (m.end(), kind) for kind, words in MEASURE_WORDS for m in words.finditer(sentence, 0, start)
    ]
    if before and start - max(before)[0] <= 80:
        return max(before)[1]
    after = [
        (m.start(), kind)
        for kind, words in MEASURE_WORDS
        for m in words.finditer(sentence, end, end + 60)
    ]
    return min(after)[1] if after else None


MEASURE_WORDS = [
    (
        "throughput-per-power",
        re.compile(
            r"per[- ](?:rated\s+)?(?:kilowatt|kw|watt|megawatt|mw|joule)\b|per[- ]watt|per[- ]kw"
            r"|\b(?:energy|power)[- ]efficiency|每(?:千瓦|瓦|兆瓦|焦)|能效",
            re.I,
        ),
    ),
    (
        "throughput-per-user",
        re.compile(
            r"per[- ]user|single[- ](?:user|stream)|\bone stream\b|单用户|每用户|单流|单路", re.I
        ),
    ),
    (
        "time",
        re.compile(r"latency|time[- ]between[- ]tokens|\btbt\b|inter-token|延迟|时延|词间", re.I),
    ),
]
CN_DIGITS = "〇一二三四五六七八九"
DISCOUNT = re.compile(r"打了?(?:个|一个)?(?P<d>[一二三四五六七八九]{1,2})折")


def _shares_taken(sentence: str, found: list[Quantity]) -> tuple[Quantity, ...]:
    """A share of a figure is that part of it: "91 percent of the 19,600 tokens per second per
    kilowatt" is 17,836 tokens per second per kilowatt."""
    out: list[Quantity] = []
    for quantity in found:
        share = out[-1] if out else None
        if (
            share is not None
            and share.quantity == "percent"
            and quantity.quantity in ABSOLUTE
            and SHARE_OF.fullmatch(sentence, share.end, quantity.start)
        ):
            value = round(share.value / 100 * quantity.value, 9)
            out[-1] = Quantity(
                share.start, quantity.end, value, quantity.quantity, quantity.comparator
            )
            continue
        out.append(quantity)
    return tuple(out)


SHARE_OF = re.compile(r"\s+of\s+(?:the\s+|its\s+|their\s+|openai['’]s\s+|[\w-]+['’]s\s+)?", re.I)


PAIR_AND = re.compile(r"\s*(?:,\s*)?(?:and|&|和|与|及)\s*", re.I)


def _carries(sentence: str, denominated: tuple, match: re.Match, number: float) -> bool:
    """Does the denominator of the throughput before (`denominated`) still hold for the next one,
    `number`: the same clause run ("…on R1 and 668 tok/s on Kimi"), no new measure named between?
    Across a semicolon only for a figure of the same scale, the parallel clause of a list
    ("每千瓦吞吐为 8.49 万 tokens/s；Kimi K2.5 则只有 1.71 万 tokens/s"), not a total beside it."""
    between = sentence[denominated[2] : match.start()]
    if len(between) > 40:
        return False
    if NEW_MEASURE.search(SEMICOLON.sub("", between)):
        return False
    if not SEMICOLON.search(between):
        return True
    ratio = number * denominated[1] / denominated[3] if denominated[3] else 0
    return 1 / 10 <= ratio <= 10


def _unit(sentence: str, match: re.Match) -> tuple[str, float, int] | None:
    after = sentence[match.end() :]
    energy = ENERGY_PER_TOKEN.match(after)
    if energy and (energy.group("per") or TOKEN_COST_BEFORE.search(sentence, 0, match.start())):
        # "55 millijoules a token", "each token cost about 55 mJ": a negative factor marks the
        # inverse (tokens per second per kW from joules per token)
        scale = 1e6 if energy.group("u").lower().startswith(("milli", "mj")) else 1e3
        return "throughput-per-power", -scale, match.end() + energy.end()
    for quantity, factor, pattern in AFTER:
        unit = pattern.match(after)
        if unit:
            if quantity == "throughput":
                # (a minute said before counts only when no time is said after: "a minute later it
                # hit 1,400 tokens/s" is per second)
                return _denominator_before(
                    sentence, match, match.end() + unit.end(), factor, minute=pattern is ALONE
                )
            return quantity, factor, match.end() + unit.end()
    pair = PAIR.match(after)
    if pair:  # "8.54万对4.5万 tokens/s/kW": the unit follows the second number
        second = NUMBER.match(after, pair.end())
        if second:
            for quantity, factor, pattern in AFTER:
                if pattern.match(after[second.end() :]):
                    if quantity == "throughput":
                        return _denominator_before(sentence, match, match.end())
                    return quantity, factor, match.end()
    return None


def heading_denominator(heading: str) -> tuple[str, float] | None:
    """The denominator a heading or a list's lead line gives the bare throughputs under it
    ("单用户生成速度:", "Per-user speed:"): (quantity, factor), or None."""
    found = [(m.end(), q, f) for q, f, p in BEFORE for m in p.finditer(heading)]
    if not found:
        return None
    _, quantity, factor = max(found)
    return quantity, factor


# where a unit may start in a heading: after an opening bracket, a colon or a comma, or at a word
# (not the "s" of a possessive: "OpenAI's figures" names no seconds)
UNIT_START = re.compile(r"[(（:：,，]\s*|(?<!['’])\b(?=[A-Za-z])|(?<=[\u4e00-\u9fff])(?=\S)")


@lru_cache(maxsize=512)
def heading_unit(heading: str) -> tuple[str, float] | None:
    """The unit a list's lead line names for the bare figures under it ("Key results (peak
    tokens per second per kilowatt):", "端到端延迟（毫秒）："): (quantity, what one of it is in
    the quantity's canonical unit), or None."""
    for start in UNIT_START.finditer(heading):
        probe = f"1 {heading[start.end() :]}"
        found = next((q for q in quantities(probe) if q.start == 0 and not q.comparator), None)
        if found is not None and isinstance(found.value, float):
            return found.quantity, found.value
    return None


def _denominator_before(
    sentence: str, match: re.Match, end: int, per: float = 1.0, minute: bool = False
):
    """Tokens per second with its denominator said before the number, or none at all (`per`:
    what the tokens said after it are a second: a sixtieth for those of a minute)."""
    lead = sentence[max(0, match.start() - 64) : match.start()]
    lead = lead[max(lead.rfind(";"), lead.rfind("；"), lead.rfind("。")) + 1 :]
    if minute and not PER_SECOND_BEFORE.search(lead[-24:]):
        if MINUTE_BEFORE.search(lead[-24:]):
            per = 1 / 60  # "一分钟下来能收到约 78,700 个 token"
        elif HOUR_BEFORE.search(lead[-24:]):
            per = 1 / 3600  # "每小时能收到 234 万个 token"
    found = [(m.end(), q, f) for q, f, p in BEFORE for m in p.finditer(lead)]
    if not found:
        return "throughput", per, end
    _, quantity, factor = max(found)
    return quantity, factor * per, end


PER_SECOND_BEFORE = re.compile(r"每秒|\b(?:per|a|each|every)\s+second\b", re.I)


def _comparator(sentence: str, match: re.Match) -> bool:
    before = sentence[max(0, match.start() - 24) : match.start()]
    if _after_comparator(before) or COMPARED_OWN.search(before):
        return True
    # the second of a pair: "1,459 对 535", "700 vs 169"
    return bool(re.search(r"\d[\d,.]*\s*(?:万|k|m)?\s*(?:vs\.?|versus|对|比)\s*$", before, re.I))


def _difference(sentence: str, start: int, end: int) -> bool:
    """Is the figure a difference from another ("38 tokens/s slower per user than OpenAI's 700",
    "比官方的 1.56 秒短了 0.05 秒")?"""
    return bool(
        DIFFERENCE_AFTER.match(sentence, end)
        or DIFFERENCE_BEFORE.search(sentence, max(0, start - 40), start)
    )


def _after_comparator(before: str) -> bool:
    return bool(COMPARATOR_BEFORE.search(before[-20:]) or BOUND_BEFORE.search(before[-20:]))


# what follows a number that has a unit or a count of its own: not a bare figure
BARE_UNIT = re.compile(
    r"[a-zA-Z\u4e00-\u9fff%×]|\s*(?:%|x\b|×|倍)|[\s-]+(?:gb|tb|mb|gw|mw|kw|w|nm|ms|s|pflops|tflops|models?"
    r"|users?|sessions?|nodes?|chips?|racks?|gpus?|boards?|tokens?|days?|weeks?|months?|years?"
    r"|input|output|in|out|prompts?|context)\b",
    re.I,
)


# quantities a difference can be said in (a ratio or a percentage "better than A0" is a reading)
ABSOLUTE = frozenset(
    {"throughput", "throughput-per-user", "throughput-per-power", "time", "power", "compute"}
)
DIFFERENCE_AFTER = re.compile(
    r"\s*(?:(?:per|a|for each|for a single)\s+user\s+)?(?:"
    r"(?:slower|faster|quicker|less|more|fewer|lower|higher|shorter|longer|better|worse)\b"
    r"(?:\s+[\w-]+){0,3}?\s+than\b"
    r"|(?:below|above|short of|shy of|under|over|behind|ahead of)\s+(?:the\s+)?[\w-]+(?:'s|’s)\s"
    # (not the conditions it was run under: "17,420 tokens/s per kW under InferenceX's 8k/1k settings")
    r"(?!(?:[\w/-]+\s+){0,2}(?:settings?|setup|workloads?|harness|conditions?|rules?|methodology"
    r"|config\w*|shape|suite|protocol)\b)"
    r"|(?:below|above|short of|shy of|under|over)\s+(?:the\s+)?(?:published|official|claimed"
    r"|reported|baseline|august)\b)",
    re.I,
)
DIFFERENCE_BEFORE = re.compile(
    r"比[^，,。；;]{0,30}?(?:短|快|慢|低|高|少|多|长|差|小|大)(?:了|出)?\s*(?:约|大约|近|将近|仅)?\s*$"
)
NEW_MEASURE = re.compile(
    r"[;；。]|\b(?:total|aggregate|overall|system|peak|throughput|per (?:kw|mw|watt|gpu|chip|rack))\b"
    r"|总|整机|吞吐|峰值|每(?:千瓦|兆瓦|瓦|卡|颗)|\b(?:vs\.?|versus|against|than)\b|对比|相比|比",
    re.I,
)
SEMICOLON = re.compile(r"[;；]")
PAIRED = re.compile(r"\s*/\s*\d")
PAIRED_BEFORE = re.compile(r"\d\s*[kK]?\s*/\s*$")


@lru_cache(maxsize=4096)
def bare_numbers(sentence: str) -> tuple[tuple[int, int, float], ...]:
    """Numbers with no unit of their own (a list's "19,450" after "81,200 tok/s/kW"); years,
    percentages and small counts are left out."""
    taken = [(q.start, q.end) for q in quantities(sentence)]
    out = []
    for match in NUMBER.finditer(sentence):
        if any(s <= match.start() < e for s, e in taken):
            continue
        if BARE_UNIT.match(sentence, match.end()) or PAIRED.match(sentence, match.end()):
            continue
        if PAIRED_BEFORE.search(sentence, max(0, match.start() - 8), match.start()):
            continue  # "8k/1k", "8,192/1,024": a workload, not a figure
        value = to_number(match.group("n"), match.group("m"))
        if value < 100 or (1900 <= value <= 2100 and not match.group("m")):
            continue
        out.append((match.start(), match.end(), value))
    return tuple(out)


def comparator_before(sentence: str, start: int) -> bool:
    """Is the number at `start` the other side of a comparison ("against 18,200", "官方1.82万")?"""
    before = sentence[max(0, start - 24) : start]
    return (
        _after_comparator(before)
        or bool(re.search(r"官方\s*$|official\s*$", before, re.I))
        or bool(COMPARED_OWN.search(before))
    )
