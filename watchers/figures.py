"""Figures: which stated quantity is which claim's, under which conditions, and whether its run
matches the claim's. Pure; mixed into `watchers.extract.Reading`."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache, lru_cache

from watchers.base import Candidate
from watchers.context import NOT_FACT, PLANNED
from watchers.needles import present
from watchers.quantities import (
    NEW_MEASURE,
    RELATIVE,
    UNITS,
    Quantity,
    bare_numbers,
    heading_denominator,
    heading_unit,
    measure_named,
    quantities,
)
from watchers.quantities import comparator_before as _comparator_before
from watchers.vocabulary import ClaimRef

OTHER_MODELS = "other-models"
OTHER_DEVICE = "another device"  # said of another device (a respectively-list's figure, say)
THIS_DEVICE = "this device"  # a respectively-list's figure of the subject
# said by someone unnamed, worked out, or (in the body, of a headline's claim) of another device
HEARSAY = frozenset({"rumour", "estimate", OTHER_DEVICE})


def only_hedged(saids) -> bool:
    """Is what the body says of a headline's claim (the categories over each saying of it)
    never asserted, and once at least hearsay or an estimate? None said: no."""
    hedged = False
    for said in saids:
        if not said:
            return False
        hedged = hedged or bool(said & HEARSAY)
    return hedged  # the model table's entry for models no claim tracks


class FigureReading:
    """The figures half of a reading: methods of `Reading`, which holds the state."""

    # ------------------------------------------------------------ conditions

    def _stated(self, number: int | None, at: int) -> bool:
        """Is the phrase at `at` of sentence `number` said as fact ("MTP off", "未开启" are not)?"""
        return number is None or self.asserted(number, at) not in NOT_FACT

    def _done(self, number: int | None, at: int) -> bool:
        """Stated as fact and not as a plan: "it will try 128k-token inputs next" ran no 128k."""
        return number is None or self.asserted(number, at) not in NOT_FACT | PLANNED

    def conditions_in(self, text: str, number: int | None = None, at: int | None = None) -> dict:
        """The conditions a sentence states (`number` given: only those it asserts). A condition
        said two ways is not known, unless `at` (a figure's place) is given: then the one said
        nearest before it holds ("B0 上的首个结果：812 tokens/s，A0 在 8 月是 694")."""
        stated: dict = self._workload(text, number, at)
        kinds = {
            name
            for name, pattern in WORKLOAD_KINDS
            if any(self._done(number, m.start()) for m in pattern.finditer(text))
        }
        if stated.get("isl", 0) >= LONG_CONTEXT_TOKENS:
            kinds.add("long-context")
        if kinds:
            stated["workload"] = tuple(sorted(kinds))
        for name, hits in self._condition_hits(text, number).items():
            if len(hits) == 1:
                stated[name] = next(iter(hits))
            elif hits and at is not None:
                before = [(end, value) for value, ends in hits.items() for end in ends if end <= at]
                if before:
                    stated[name] = max(before, key=lambda hit: hit[0])[1]
        return stated

    def _workload(self, text: str, number: int | None, at: int | None) -> dict:
        """Input and output lengths the sentence states: the first pattern's saying; when two
        differ, the first said in the figure's clause, before the figure if one is ("At 32k
        context, the lead narrows to 1.2x, from 1.5x at 8k/1k")."""
        found = []
        for pattern, kind in WORKLOAD:
            match = next((m for m in pattern.finditer(text) if not _comparands(text, m)), None)
            if match and self._done(number, match.start()):
                scale = 1 if kind.endswith("tokens") else 1024
                stated = {"isl": round(float(match.group("i").replace(",", "")) * scale)}
                if kind.startswith("io"):
                    stated["osl"] = round(float(match.group("o").replace(",", "")) * scale)
                found.append((match.end(), stated))
        if not found:
            return {}
        if at is not None and any(hit[1] != found[0][1] for hit in found):
            start, end = _clause_around(text, at)
            own = [hit for hit in found if start < hit[0] <= end] or found
            before = [hit for hit in own if hit[0] <= at]
            return dict((before or own)[0][1])
        return dict(found[0][1])

    def _condition_hits(self, text: str, number: int | None) -> dict[str, dict]:
        """For each condition the sentence states: value -> where each saying of it ends."""
        key = (text, number)
        cached = self._hits.get(key)
        if cached is not None:
            return cached
        out = {}
        lowered = text.lower()
        found = present(lowered)
        for name, values in self.subject.conditions.items():
            hits = {
                value: [
                    m.end()
                    for m in pattern.finditer(text, lowered=lowered)
                    # (not a plan: "认证和 AgentX 还在路上" ran no AgentX)
                    if self._done(number, m.start())
                    and not self._of_another(number, m.start())
                    and not _compared_before(text, m.start())
                    and not COMPARED_AFTER.match(text, m.end())  # "与A0相比"
                    # (not the other figure's: "111,900 …, against 85,448 on A0 last August")
                    and not AGAINST_FIGURE.search(text, max(0, m.start() - 48), m.start())
                ]
                for value, pattern in values
                if not pattern.absent(found)
            }
            hits = {value: ends for value, ends in hits.items() if ends}
            if hits:
                out[name] = hits
        self._hits[key] = out
        return out

    def _of_another(self, number: int | None, at: int) -> bool:
        """Is the phrase at `at` said of another device: the one named nearest it in its clause
        ("Rubin ran with multi-token prediction and Jalapeño did not"), or before it in the
        sentence ("The comparator systems were re-run, with multi-token prediction on")?"""
        if number is None or not self.mentions[number]:
            return False
        clause = self.analysed[number].sentence.clause_at(at)
        mentions = self.mentions[number]
        # the device named last before it in its clause ("Rubin ran with MTP and Jalapeño did
        # not"), else first after it there ("With MTP on, Rubin …"), else last before it
        named = (
            [m for m in mentions if clause.start <= m.start < at][-1:]
            or [m for m in mentions if at <= m.start < clause.end][:1]
            or [m for m in mentions if m.start < at][-1:]
        )
        return bool(named) and not named[0].ours

    def _figures(self, retest_said: bool = False) -> list[Candidate]:
        """The item's figures on the claims (`retest_said`: a signal says the subject was
        independently re-tested, so its figures are that run's)."""
        out = []
        if not self.subject.metrics:
            return out  # a subject known by its signals alone has no figures to read
        who = self.measurement[0] or ("independent" if retest_said else "")
        last: tuple[int, Quantity, object] | None = None  # the latest figure read, for lists
        for number, sentence in enumerate(a.sentence for a in self.analysed):
            stated = None
            bare = bare_numbers(sentence.text)
            found = sorted([*quantities(sentence.text), *bare], key=_start)
            if found:
                # (a workload's lengths are no figures: "8192 → 1024 tokens")
                found = [q for q in found if not _in_workload(sentence.text, _start(q))]
            if not found:
                continue  # no figure: nothing of this sentence is read
            respective = self._respectively(number)
            heading = (
                self._heading(number) or _row_label(sentence.text) or self._said_before(number)
            )
            seen = None  # the sentence's last figure with a unit, whoever's
            for quantity in found:
                if not isinstance(quantity, Quantity) and -quantity[0] - 1 in respective:
                    quantity = respective[-quantity[0] - 1]  # "1,392, 702 and 731 tok/s"
                if not isinstance(quantity, Quantity):
                    bare_number = quantity
                    if compared_clause(sentence, bare_number[0]):
                        continue  # "…, against 535, 169 and 182 on the Nvidia systems"
                    quantity = self._under_heading(number, bare_number)
                    if quantity is None and last is not None and number - last[0] <= 3:
                        quantity = self._listed(number, bare_number, last[1])
                    if quantity is None and seen is not None:
                        quantity = self._listed(number, bare_number, seen, by_subject=True)
                    if quantity is None:
                        quantity = self._in_table_unit(number, bare_number)
                    if quantity is None:
                        quantity = _unit_named_before(sentence.text, bare_number)
                    if quantity is None:
                        continue
                else:
                    seen = quantity
                factor = None
                if quantity.quantity == RELATIVE:
                    # "six per cent lower than OpenAI's figure": that share of the published figure,
                    # of the measure the words around it name
                    measure = measure_named(sentence.text, quantity.start, quantity.end)
                    if measure is None or any(
                        isinstance(q, Quantity) and q.quantity == measure for q in found
                    ):
                        continue  # (the figure itself said beside it: "81,200, 5 % below")
                    factor, quantity = quantity.value, replace(quantity, quantity=measure)
                if heading and quantity.quantity == "throughput":
                    # "单用户生成速度:" then "GPT-OSS 120B:1380 tokens/s": per user
                    quantity = replace(
                        quantity, quantity=heading[0], value=round(quantity.value * heading[1], 9)
                    )
                if quantity.comparator or respective.get(quantity.start) == OTHER_DEVICE:
                    continue
                if _in_quotes(sentence.text, quantity):
                    continue  # "“104 倍”第一次被外人复测": the claim named, not a figure given
                if _range_end(sentence.text, quantity):
                    continue  # "三个模型整体 1.03 到 1.65 秒的区间": a span, not one figure
                said = self.asserted(number, quantity.start)
                if said is not None and not (
                    said == "retracted" and self._corrects(number, quantity)
                ):
                    continue
                if number == 0 and (
                    self._title_hedged(quantity.start) or self._hedged_in_body(quantity)
                ):
                    continue  # "B0 yield staying at 40% level" over "it is known that … 40%"
                mapped = respective.get(quantity.start)
                if mapped != THIS_DEVICE and not self.about_subject(number, quantity.start):
                    continue
                if self._set_right(number, quantity, found):
                    continue  # "1.08 秒为调试阶段数据，…实测值为 1.18 秒": the wrong one
                before = self._lead_before(number)
                metric = (
                    self._metric(sentence.text, quantity, before)
                    or self._metric_earlier_in(sentence.text, quantity, before)
                    or self._metric_before(number, quantity)
                )
                if (
                    metric
                    and metric.cues is None
                    and LABEL_LEAD.fullmatch(sentence.text, 0, quantity.start)
                ):
                    # "Jalapeño: 11,400 tokens per second per kilowatt." after a sentence naming the
                    # point it was read at: the measure the sentence before named
                    metric = self._metric_before(number, quantity) or metric
                if not metric:
                    continue
                metric = self._held_over(number, quantity, metric)
                if metric.most is not None and quantity.value > metric.most:
                    continue  # "B0 yield is 110% because it's spicy": no such yield
                last = (number, quantity, metric)
                stated = self.conditions_in(sentence.text, number, at=quantity.start)
                before = self._stated_before(number, quantity) if "isl" in stated else {}
                said = _own_workload(
                    {**self._said_of_all(), **self._said_earlier(number)}, stated, before
                )
                # (a figure stated as fact is no run's: "81% 的裸片良率" takes no A0 from the
                # August run the item retells)
                run = {} if metric.disclosure else self.measurement[2]
                conditions = _own_workload(run, said, before)
                model = (mapped if mapped != THIS_DEVICE else None) or self.model_at(
                    number, quantity.start, quantity.end
                )
                measured = (bool(who) or metric.disclosure) and (
                    factor is not None or not self._quoted(number, quantity)
                )  # (a change from the official figure names it, and is no quote of it)
                keys = RAN_KEYS & said.keys() if who and not metric.disclosure else ()
                if measured and keys:
                    # the run's figures say what it ran: "with 32,768-token inputs, … 410 tok/s",
                    # "B0 上的首个结果：812 tokens/s" (a stated rating or yield is no run)
                    self.ran = _merge(self.ran, {k: said[k] for k in keys})
                if measured and metric.run and (stated or metric.run_on) and self._says_run(number):
                    # "B0 measures 31% more per watt", "31 % more per watt than on the A0 samples"
                    self.ran = _merge(self.ran, {**stated, **metric.run_on})
                    self.ran_itself = True
                if (
                    measured
                    and who
                    and model
                    and not self._retold_figure(number, quantity)
                    and not self._run_denied(number)
                    # (not a table's row whose measured cell says it was not run: "实测 未测")
                    and not NOT_RUN_CELL.search(sentence.text)
                ):
                    self.ran_models.add(model)  # (not "the August numbers, 85,448 …" retold)
                found_here = self._on_claims(
                    metric, model, quantity, conditions, measured, sentence, factor
                )
                if "isl" in stated:  # its own sentence states the workload it was run at
                    found_here = [c if c.mismatch else replace(c, stated=True) for c in found_here]
                out.extend(found_here)
        return out

    def _a_baseline(self, value, within: float = 0.0005) -> bool:
        """Is the figure one of the subject's published figures, within `within` (by default to
        the digit: a run's own figure that matches one exactly is rarer than a retelling of it)?"""
        if self._baselines is None:
            self._baselines = tuple(
                v
                for refs in self.index.by_metric.values()
                for ref in refs
                if ref.id.startswith(f"{self.subject.id}.")
                and isinstance(v := (self.claims.get(ref.id) or {}).get("value"), int | float)
                and not isinstance(v, bool)
            )
        if not isinstance(value, int | float):
            return False  # a range: no single figure
        return any(abs(value - b) <= abs(b) * within for b in self._baselines)

    def _retold_figure(self, number: int, quantity) -> bool:
        """Is the figure the first published run's, retold: one of its figures, or said in a
        sentence dated to it that reports no run ("8 月成绩单里，…DeepSeek R1 的 104.3 倍")?"""
        return self._a_baseline(quantity.value) or (
            self._dated(number, 0, quantity.start) and not self._says_run(number)
        )

    def _run_denied(self, number: int) -> bool:
        """Does the sentence say a run with its measuring words, none of them as fact ("DeepSeek
        R1 的 104 倍口径本轮没有复测")?"""
        return bool(self._verbs(number)) and not self._says_run(number)

    def _says_run(self, number: int) -> bool:
        """Does the sentence report a run as fact ("B0 measures 31% more", "实测提升28%"), not a
        figure alone ("B0: in fab, ~25 % better per watt expected")?"""
        text = self.analysed[number][0].text
        return any(
            self.asserted(number, m.start()) is None
            for m in self.rules.verbs.finditer(
                text, 0, len(text), lowered=self.analysed[number].lowered
            )
        )

    def _said_of_all(self) -> dict:
        """The conditions a sentence says of every figure in the item ("以上数据均在 B0 步进样片
        上测得", "All of the figures above were taken with MTP on")."""
        if self._of_all is None:
            self._of_all = {}
            for number, read in enumerate(self.analysed):
                # (not the first published run's, dated: "2026 年 8 月…跑分芯片是 A0 工程片")
                if OF_ALL.search(read.sentence.text) and not self._dated(number):
                    self._of_all.update(self.conditions_in(read.sentence.text, number))
        return self._of_all

    def _stated_before(self, number: int, quantity: Quantity) -> dict:
        """The conditions a sentence states before a figure, in the figure's own stretch between
        semicolons ("约为 8k 输入时官方数字的 55%；单用户速度 1,180": not the second figure's)."""
        text = self.analysed[number].sentence.text
        start = max((m.end() for m in SEMICOLONS.finditer(text, 0, quantity.start)), default=0)
        return self.conditions_in(" " * start + text[start : quantity.start], number)

    def _said_earlier(self, number: int) -> dict:
        """The workload the two sentences before state, for a figure whose own sentence states
        none ("1k tokens of input and 8k of output." then '"We measured 1,512 …"'); a list's
        lines are items of their own."""
        cached = self._earlier.get(number)
        if cached is not None:
            return cached
        out: dict = self._earlier.setdefault(number, {})
        if LIST_LINE.match(self.analysed[number].sentence.text):
            return out
        for back in range(max(self.sections[number], number - 2), number):
            text = self.analysed[back].sentence.text
            if LIST_LINE.match(text) or not (
                WORKLOAD_HINT.search(text) or MTP_HINT.search(text) or SILICON_HELD.search(text)
            ):
                continue
            named = self.mentions[back]
            if named and not any(m.ours for m in named):
                continue  # "The GB300 side again had MTP on": another device's conditions
            out.update(self._run_said(text, back))
        after = number + 1
        if after < len(self.analysed) and self.sections[after] == self.sections[number]:
            text = self.analysed[after].sentence.text
            named = self.mentions[after]
            if (
                RUN_AFTER.match(text)
                and (WORKLOAD_HINT.search(text) or MTP_HINT.search(text))
                and all(m.ours for m in named)
            ):
                # "… measured 21,040 tokens/s/kW. The run used a 1,000-token prompt and …"
                out.update(self._run_said(text, after))
        return out

    def _run_said(self, text: str, number: int) -> dict:
        """What a sentence says of how a run was done: its workload and MTP, and the silicon
        where it says what the party had in hand ("had a sled of B0 parts for ten days")."""
        stated = self.conditions_in(text, number)
        keys = (
            "isl",
            "osl",
            "workload",
            "mtp",
            *(("silicon",) if SILICON_HELD.search(text) else ()),
        )
        return {k: v for k, v in stated.items() if k in keys}

    def _hedged_in_body(self, quantity: Quantity) -> bool:
        """Does the body give the headline's figure only as hearsay or an estimate? A headline
        drops the hedges its story keeps."""
        return only_hedged(
            {said} if (said := self.asserted(number, other.start)) else set()
            for number in range(1, len(self.analysed))
            for other in quantities(self.analysed[number].sentence.text)
            if other.quantity == quantity.quantity and other.value == quantity.value
        )

    def _set_right(self, number: int, quantity: Quantity, found: list) -> bool:
        """Does a correction later in the sentence give the right figure of the same quantity
        ("1.08 秒为调试阶段数据，实测值为 1.18 秒")? Then this one is the figure it replaces."""
        text = self.analysed[number].sentence.text
        right = CORRECT_VALUE.search(text, quantity.end)
        return bool(right) and any(
            isinstance(other, Quantity)
            and other.quantity == quantity.quantity
            and other.start >= right.end()
            for other in found
        )

    def _corrects(self, number: int, quantity: Quantity) -> bool:
        """Is the figure the one a correction gives ("误写为 681，正确数字为 618", "should have read
        1.24 s")? The rest of the withdrawn sentence stays withdrawn."""
        sentence = self.analysed[number].sentence
        clause = sentence.clause_at(quantity.start)
        return bool(CORRECT_VALUE.search(sentence.text, clause.start, quantity.start)) or bool(
            CORRECTED_AFTER.match(sentence.text, quantity.end)
        )  # "measured 1.21 seconds …, not 1.12 seconds as originally reported"

    def _said_before(self, number: int) -> tuple[str, float] | None:
        """The denominator the sentence before gave its throughput (or named with no figure), for a
        bare one in this sentence that names no measure of its own ("单用户速度为 614 tokens/s，数字有误。该负责人给出的
        实测值为 641 tokens/s")."""
        if number == 0 or not any(
            q.quantity == "throughput" for q in quantities(self.analysed[number].sentence.text)
        ):
            return None
        before = self.analysed[number - 1].sentence.text
        said = quantities(before)
        if said and not any(q.quantity.startswith("throughput-per") for q in said):
            return None  # (a sentence naming the measure alone names it too: "只测了一个指标：单用户速度")
        text = self.analysed[number].sentence.text.rstrip("。.!！?？ ")
        # (a semicolon between its figures starts no new measure here: "…1388 tokens/s，官方是 1459；
        # R1 是 662")
        if any(m.group(0) not in ";；" for m in NEW_MEASURE.finditer(text)) or any(
            m.cues and m.cues.search(text) for m in self.subject.metrics
        ):
            return None
        return heading_denominator(before)

    def _heading(self, number: int) -> tuple[str, float] | None:
        """The denominator of the nearest line before that leads a list (it ends with a colon),
        when only list lines stand between."""
        lead = self._lead_line(number)
        return heading_denominator(lead) if lead else None

    def _under_heading(self, number: int, bare: tuple) -> Quantity | None:
        """ "Key results (peak tokens per second per kilowatt):" then "- DeepSeek R1: 17,850": a
        bare number right after a model's name, on a line of a list whose lead line names the
        unit, is a figure in that unit."""
        text = self.analysed[number][0].text
        start, end, _ = bare
        models = [s for s, _ in self.models[number] if s < start]
        if not models:
            return self._before_model(number, bare)
        # or the unit between the model and the figure: "GPT-OSS 120B, tokens/s per kW: 81,200"
        label = text[models[-1] : start].rstrip()
        unit = heading_unit(label) if label.endswith((":", "：")) and len(label) <= 60 else None
        if unit is None:
            lead = self._lead_line(number)
            unit = heading_unit(lead) if lead else None
            if unit is None or not BARE_LEAD.fullmatch(text[models[-1] : start]):
                return None
        return _bare_in(text, bare, unit)

    def _in_table_unit(self, number: int, bare: tuple) -> Quantity | None:
        """ "GPT-OSS 120B: Jalapeño (OIC) 81,900; …" under or over "Units: tokens per second per kW":
        a table row's bare cell is in the unit a line of the item names for the whole table."""
        text = self.analysed[number][0].text
        if not TABLE_ROW.match(text):
            return None
        unit = self._table_units()
        return _bare_in(text, bare, unit) if unit is not None else None

    def _table_units(self) -> tuple[str, float] | None:
        """The unit an item's "Units: …", "Metric: …" or "单位：…" line names, once."""
        if not hasattr(self, "_units_line"):
            self._units_line = None
            for read in self.analysed:
                line = UNITS_LINE.match(read.sentence.text)
                if line:
                    self._units_line = heading_unit(line.group("unit"))
                    if self._units_line is not None:
                        break
        return self._units_line

    def _before_model(self, number: int, bare: tuple) -> Quantity | None:
        """ "Peak throughput per kilowatt: 81,200 for GPT-OSS 120B, 18,700 for DeepSeek R1": a bare
        number just before "for" or "on" a model, after a label of its sentence that names the
        measure, is a figure of that measure."""
        text = self.analysed[number][0].text
        start, end, _ = bare
        colon = max(text.rfind(":", 0, start), text.rfind("：", 0, start))
        after = FOR_MODEL.match(text, end)
        if colon <= 0 or colon > 80 or after is None:
            return None
        if not any(at == after.end() for at, _ in self.models[number]):
            return None
        found = heading_denominator(text[: colon + 1])
        return _bare_in(text, bare, found) if found is not None else None

    def _lead_line(self, number: int) -> str | None:
        """The nearest line before that leads a list (it ends with a colon), when only list lines
        stand between."""
        lines = 0
        for back in range(number - 1, max(-1, number - 12), -1):
            text = self.analysed[back][0].text.rstrip()
            if LIST_NUMBER.fullmatch(text):
                continue  # the list's own "2."
            lines += 1
            if lines > 5:
                return None
            if text.endswith((":", "：")):
                return text
            if text.endswith((".", "。", "!", "?", "！", "？")):
                return None  # a sentence, not a list line: the list is over
        return None

    def _quoted(self, number: int, quantity: Quantity) -> bool:
        """ "官方说…1.7到3.6倍", "OpenAI's 19,600": a figure the clause gives as the owner's word is
        quoted, not measured by the item's own run."""
        if self.measurement[0] != "independent":
            return False
        sentence = self.analysed[number][0]
        clause = sentence.clause_at(quantity.start)
        lead = sentence.text[max(clause.start, quantity.start - 24) : quantity.start]
        owner = self.subject.owner
        colon = max(
            sentence.text.rfind(":", 0, quantity.start),
            sentence.text.rfind("：", 0, quantity.start),
        )
        return bool(
            QUOTED.search(lead)
            # a list led in as the published ones: "OpenAI's published figures as the running
            # example: 1,459 …, 700 … and 694", "官方公布的数据：…"
            or (colon > 0 and QUOTED_LIST.search(sentence.text, 0, colon))
            # "the only ranges available were OpenAI's: 1.5–1.9× …": the owner's, listed
            or (
                colon > 0
                and owner is not None
                and _owners_list(owner).search(sentence.text, 0, colon)
            )
            or self._by_owners_figures(sentence.text)
            or self._owners_after(sentence.text, quantity.end)
            or (
                owner is not None
                and (
                    _owners_word(owner).search(lead)
                    # "OpenAI had reported 700 tokens per second and 1.03 seconds."
                    or _owner_reported(owner).match(sentence.text, clause.start)
                    # a table row named for the owner: "OpenAI 8 月: Jalapeño 1.23 万 tok/s/kW; …"
                    or self._owners_row(sentence.text, quantity.start)
                )
            )
        )

    def _owners_after(self, text: str, end: int) -> bool:
        """Is the figure said to be the owner's after it ("the 104x is still OpenAI's alone")?"""
        owner = self.subject.owner
        link = IS_WHOSE.match(text, end)
        if owner is None or link is None:
            return False
        found = owner.match(text, link.end())
        return found is not None and text.startswith(("'s", "’s"), found.end())

    def _by_owners_figures(self, text: str) -> bool:
        """Does the sentence open on the owner's figures as its source ("按官方 8 月数据，…",
        "According to OpenAI's August figures, …")? Every figure in it is theirs."""
        lead = BY_FIGURES_OF.match(text)
        owner = self.subject.owner
        return bool(lead) and (
            OFFICIAL.search(lead.group(1)) is not None
            or (owner is not None and owner.search(lead.group(1)) is not None)
        )

    def _owners_row(self, text: str, at: int) -> bool:
        """Is the figure at `at` in a table row (as `text.TABLE` reads it) whose label names the
        owner ("OpenAI, Aug 25: Jalapeño 12,300 tok/s/kW; GB300 118 tok/s/kW")?"""
        label = ROW_LABEL.match(text)
        return bool(
            label
            and label.end() <= at
            and ";" in text[label.end() :]
            and self.subject.owner.search(label.group(1))
            and not self.subject.mentions(label.group(1))  # "OpenAI Jalapeño (A0)": the chip
        )

    def _respectively(self, number: int) -> dict[int, str | Quantity]:
        """ "A and B … X and Y respectively", "A和B…分别为X和Y": figure i is model i. Bare numbers
        listed before the last figure share its unit ("1,392, 702 and 731 tokens per second");
        they come back as Quantities keyed by where they start."""
        text = self.analysed[number][0].text
        cue = RESPECTIVELY.search(text)
        if not cue:
            return self._for_models(number)
        sentence = self.analysed[number][0]
        span = next((p for p in sentence.spans if p.start <= cue.start() < p.end), None)
        begin, end = (span.start, span.end) if span else (0, len(text))
        models: list[str] = []
        for start, name in self.models[number]:
            if begin <= start < cue.start() and name != OTHER_MODELS and name not in models:
                models.append(name)
        last_model = max((st for st, _ in self.models[number] if st < end), default=-1)
        borrowed = not models and last_model < 0
        if borrowed:
            # "复测覆盖 GPT-OSS 120B 与 Kimi K2.5 两款模型。…优势分别为 47.9 倍和 49.5 倍": the
            # models the sentence before names, when this one names none
            models = self._models_before(number)
            last_model = cue.start() - 1
        after = [q for q in quantities(text) if not q.comparator and last_model < q.start < end]
        if borrowed:
            after = after[: len(models)]  # (not "，低于 OpenAI 公布的 53.7 倍和 56.1 倍")
        if len(models) < 2:
            return self._respective_devices(number, begin, cue.start(), end)
        if len(after) == 1 and len(models) > 1:
            after = _shared_unit(text, last_model, after[0]) or after
        if len(after) != len(models):
            return {}
        out: dict[int, str | Quantity] = {
            q.start: model for q, model in zip(after, models, strict=True)
        }
        out.update({-q.start - 1: q for q in after})  # the figures themselves, by -(start + 1)
        return out

    def _models_before(self, number: int) -> list[str]:
        """The tracked models the sentence before names, in order, when it is of the same story."""
        if number == 0 or self.sections[number - 1] != self.sections[number]:
            return []
        out: list[str] = []
        for _, name in self.models[number - 1]:
            if name != OTHER_MODELS and name not in out:
                out.append(name)
        return out

    def _respective_devices(self, number: int, begin: int, cue: int, end: int) -> dict:
        """ "Jalapeño, GB300 and a Rubin rack did 16.8k, 11.6k and 19.9k tokens/s per kilowatt
        respectively": figure i is device i's; another device's figure is marked OTHER_DEVICE."""
        text = self.analysed[number][0].text
        devices: list = []  # the Mentions named before the cue, one a device
        for m in self.mentions[number]:
            if not begin <= m.start < cue:
                continue
            if devices and not text[devices[-1].end : m.start].strip():
                continue  # "Vera Rubin NVL144": one device
            devices.append(m)
        if len(devices) < 2:
            return {}
        last = devices[-1].end
        after = [q for q in quantities(text) if not q.comparator and last < q.start < end]
        if len(after) == 1:
            after = _shared_unit(text, last, after[0]) or after
        if len(after) != len(devices):
            return {}
        out: dict[int, str | Quantity] = {
            q.start: THIS_DEVICE if d.ours else OTHER_DEVICE
            for q, d in zip(after, devices, strict=True)
        }
        out.update({-q.start - 1: q for q in after})
        return out

    def _for_models(self, number: int) -> dict[int, str | Quantity]:
        """ "1,401, 688 and 702 tokens per second for GPT-OSS 120B, DeepSeek R1 and Kimi K2.5":
        a list of figures, then "for" and a list of as many models, figure i for model i."""
        text = self.analysed[number][0].text
        marks = [(start, name) for start, name in self.models[number] if name != OTHER_MODELS]
        if len(marks) < 2:
            return {}
        for q in quantities(text):
            lead = FOR_MODELS.match(text, q.end)
            if not lead or q.comparator:
                continue
            figures = _shared_unit(text, -1, q)
            names, edge = [], lead.end()
            for start, name in marks:
                if start >= edge and LIST_JOINT.fullmatch(text, edge, start):
                    names.append(name)
                    model = next(m for m in self.subject.models if m.id == name)
                    found = next(iter(model.names.finditer(text[start:])), None)
                    edge = start + (found.end() if found else 1)
            if len(figures) >= 2 and len(names) == len(figures):
                out: dict[int, str | Quantity] = {
                    f.start: n for f, n in zip(figures, names, strict=True)
                }
                out.update({-f.start - 1: f for f in figures})
                return out
        return {}

    def _metric(self, text: str, quantity: Quantity, before: str = ""):
        """The metric a figure measures: the one whose cue stands nearest it (a cue that may stand
        anywhere in the sentence wins outright), else the only one with no cues. The words a
        metric needs may stand in the sentence `before` ("B0 is back. … 31 % more per watt")."""
        # (not the words of a figure before it that "and" joins to this one)
        start = _after_figure_before(text, quantity, max(0, quantity.start - WINDOW_BEFORE))
        # (in a list of ratios, what stands after the one before, up to a break, is its own:
        # "1.6 to 3.2 times lower latency, and 1.9 to 3.5 times the interactive speed")
        ratios = list(RATIO_BEFORE.finditer(text, start, quantity.start))
        if ratios:
            breaks = list(RATIO_BREAK.finditer(text, ratios[-1].end(), quantity.start))
            start = breaks[-1].end() if breaks else start
        after = text[quantity.end : quantity.end + WINDOW_AFTER]
        after = AFTER_BREAK.split(after, maxsplit=1)[0]  # cues after a break: the next figure's
        window = text[start : quantity.end] + after
        best, best_distance = None, None
        defaults = []
        for metric in self.subject.metrics:
            if not _may_measure(metric, quantity, text, before):
                continue
            if metric.cues is None:
                defaults.append(metric)
                continue
            if metric.wide and metric.cues.search(_part_of(text, quantity)):
                return metric
            distance = _nearest(metric.cues, window, quantity.start - start)
            if distance is not None and (best_distance is None or distance < best_distance):
                best, best_distance = metric, distance
        return best or (defaults[0] if len(defaults) == 1 else None)

    def _listed(
        self, number: int, bare: tuple, previous: Quantity, by_subject: bool = False
    ) -> Quantity | None:
        """ "DeepSeek R1 landed at 19,450", "Kimi K2.5为1.71万": a bare number right after a model's
        name, in a list whose last figure had a unit, is a figure of that unit and scale; with
        `by_subject`, right after the subject's name, in the unit of the sentence's figure before
        it ("Rubin produced 21.9 million tokens per second per megawatt; Jalapeño produced 18.7
        million")."""
        text = self.analysed[number][0].text
        start, end, value = bare
        models = [s for s, _ in self.models[number] if s < start]
        if by_subject:
            named = [s for s, _ in self.models[number]]
            models = [m.start for m in self.mentions[number] if m.ours and m.start < start]
            if not models or any(models[-1] < s < start for s in named):
                return None  # a model named after the subject: the model's list, not this
            value = _in_unit_of(text, value, previous)
        ran_to = RAN_TO.search(text, max(0, start - 30), start)
        if ran_to and not self.mentions[number]:
            # "OpenAI's figure was 18,200 tokens per second per kilowatt. On our bench the best
            # configuration we found did 16,950.": the sentence after goes on in its unit
            models = [ran_to.start()]
        elif (
            not models
            or start - models[-1] > 36
            or not BARE_LEAD.fullmatch(text[models[-1] : start])
        ):
            return None
        others, owner = self.subject.others, self.subject.owner
        if others is not None and others.search(text, models[-1], start):
            return None  # "DeepSeek R1为1.96万，对比GB300的1.18万": the other device's figure
        if owner is not None and owner.search(text, models[-1], start):
            return None  # "Kimi K2.5: 731 tokens/s (OpenAI: 694)": the owner's figure beside it
        ratio = value / previous.value if isinstance(previous.value, float) else 0
        if not 1 / 10 <= ratio <= 10:
            return None  # another scale: not the list's unit
        return Quantity(start, end, value, previous.quantity, _comparator_before(text, start))

    def _lead_before(self, number: int) -> str:
        """The sentence before, or for a table's row, the line the table hangs from (past the
        rows before it)."""
        if not number:
            return ""
        if not TABLE_ROW.fullmatch(self.analysed[number][0].text):
            return self.analysed[number - 1].sentence.text
        return self.analysed[self._lead_of(number)].sentence.text

    def _lead_of(self, number: int) -> int:
        """The sentence before `number`, past the list items or table rows before it when it is
        one of them."""
        back = number - 1
        if _item_or_row(self.analysed[number][0].text):
            while back > 0 and _item_or_row(self.analysed[back][0].text):
                back -= 1
        return back

    def _held_over(self, number: int, quantity: Quantity, metric):
        """ "两边都维持约169 token/s的单用户速度。Jalapeño每千瓦约9,800": a condition said in the
        sentence before (a sentence-wide cue) still holds for a bare figure of its quantity, unless
        the figure says it is the peak."""
        if metric.cues is not None or number == 0 or PEAK.search(self.analysed[number][0].text):
            return metric
        # the sentence before, or up to three back past sentences with no figure ("both held
        # at 169 tokens per second per user." "And throughput per kilowatt at that point?")
        listed = _item_or_row(self.analysed[number][0].text)
        for back in range(number - 1, max(self.sections[number], number - 3) - 1, -1):
            before = self.analysed[back][0].text
            for other in self.subject.metrics:
                if other.wide and other.quantity == quantity.quantity and other.cues.search(before):
                    return other
            if listed and _item_or_row(before):
                continue  # a list's items (a table's rows) go back to its lead, past those before
            if quantities(before):
                break
        return metric

    def _metric_earlier_in(self, text: str, quantity: Quantity, before: str = ""):
        """The metric whose cue stands last before the figure anywhere in its sentence ("Across the
        interactive operating points the paper reports, …, the speed-up ranged from 1.8 to 3.9
        times"): the sentence's own word outweighs one of the sentences before."""
        best = None
        for metric in self.subject.metrics:
            if metric.cues is None or not _may_measure(metric, quantity, text, before):
                continue
            hits = [m.end() for m in metric.cues.finditer(text, 0, quantity.start)]
            if hits and (best is None or hits[-1] > best[0]):
                best = (hits[-1], metric)
        return best[1] if best else None

    def _metric_before(self, number: int, quantity: Quantity):
        """ "The lab measured 1.24 seconds": a bare figure measures what the nearest of the three
        sentences before it named, when exactly one metric of its quantity is named there (in its
        own story: a reply in a thread does not take a metric from the post above it)."""
        text = self.analysed[number][0].text
        # the sentences before; for a table's later row, then the line above its rows (not a
        # list's item: "3. …AI 生成的实现比人类手写版本快 1.5 到 1.8 倍" takes no metric of its lead)
        lead = self._lead_of(number) if number and TABLE_ROW.fullmatch(text) else -1
        near = self._sentences_before(number, 3)
        above = (
            range(lead, max(self.sections[number] - 1, lead - 3), -1)
            if 0 <= lead < number - 1
            else ()
        )
        for back in (*near, *(b for b in above if b not in near)):
            found = self._named_in(self.analysed[back][0].text, text, quantity)
            if found is not None:
                return found
        return None

    def _sentences_before(self, number: int, count: int) -> list[int]:
        """The `count` sentences before sentence `number` in its part, a block of rows that are
        each a label and a figure ("Feb   52 %" under a slide's title) counted as one."""
        out: list[int] = []
        back, units = number - 1, 0
        while back >= self.sections[number] and units < count:
            out.append(back)
            units += 1
            while (
                back > self.sections[number]
                and BARE_ROW.fullmatch(self.analysed[back].sentence.text)
                and BARE_ROW.fullmatch(self.analysed[back - 1].sentence.text)
            ):
                back -= 1
                out.append(back)
            back -= 1
        return out

    def _named_in(self, before: str, text: str, quantity: Quantity):
        """The one metric of the figure's quantity an earlier sentence names, if exactly one."""
        lowered = before.lower()
        found = present(lowered)
        named = [
            m
            for m in self.subject.metrics
            if m.cues is not None
            and not m.cues.absent(found)
            and m.cues.search(before, lowered=lowered)
            # (the chip a question names is the answer's: "Where are B0 yields?" "71 percent")
            and _may_measure(m, quantity, text, before if _answers_question(text, before) else "")
            and not (m.unless and m.unless.search(before))
            # (not a metric the words rule out: "词间延迟" names no end-to-end latency)
            and not (m.exclude and m.exclude.search(before))
        ]
        if len(named) > 1:
            return False  # named, but ambiguously: look no further back
        return named[0] if named else None

    def _on_claims(
        self, metric, model, quantity: Quantity, conditions, measured, sentence, factor=None
    ):
        """The candidate a figure gives (`factor`: the figure is that share of the claim's)."""
        refs = self.index.find(self.subject.id, metric.id, model)
        if not refs:
            return []
        conditions = {k: v for k, v in conditions.items() if k not in metric.ignores}
        verdicts = [(ref, _mismatch(ref.conditions, conditions)) for ref in refs]
        matching = [(ref, m) for ref, m in verdicts if not m]
        ref, mismatch = (matching or verdicts)[0]
        published = (self.claims.get(ref.id) or {}).get("value")
        value = _share_of(published, factor) if factor is not None else _in_unit(quantity, ref)
        if factor is not None:
            # worked out from a share, not a figure the source states: evidence, not a change
            mismatch = mismatch or f"worked out as {factor:.0%} of the published figure"
        if not mismatch and NOT_COMPARABLE.search(sentence.text):
            # "Its measured 1,610 … is therefore not comparable with OpenAI's 1,459": the source's word
            mismatch = "not comparable with the claim, the source says"
        if value is None or not _plausible(value, published):
            return []
        return [
            Candidate(
                claim_id=ref.id,
                value=value,
                unit=ref.unit,
                signal="figures",
                excerpt=_excerpt(sentence.text),
                measured=measured,
                verification=self.level() if measured else "",
                mismatch=mismatch,
            )
        ]

    def _measured(self) -> list[Candidate]:
        """What a new measurement of the subject says by itself: that it was re-tested, and
        what its conditions imply (a long-context run, a run on the next stepping)."""
        who, _, conditions = self.measurement
        if not who and not self.ran_itself:
            return []
        conditions = _merge(conditions, self.ran)
        excerpt = _excerpt(self._measurement_sentence())
        out = []
        spec = self.subject.measurement
        if who == "independent" and spec:
            out.append(Candidate(spec.claim, self.level(), "independent-retest", excerpt))
        for implication in self.subject.implies:
            if not all(_holds(conditions.get(k), wanted) for k, wanted in implication.when.items()):
                continue
            if implication.unless is not None and self._says_anywhere(implication.unless):
                continue  # a B0 compute figure from a spec sheet, and "B0 remains in fab"
            out += [Candidate(c, v, "implied", excerpt) for c, v in implication.sets]
        return out

    def _says_anywhere(self, pattern) -> bool:
        """Does some sentence of the item state what the pattern finds, as fact?"""
        return any(
            self.asserted(number, m.start()) is None
            for number, read in enumerate(self.analysed)
            for m in pattern.finditer(read.sentence.text)
        )

    def _measurement_sentence(self) -> str:
        for number, sentence in enumerate(a.sentence for a in self.analysed):
            verb = self.rules.verbs.search(sentence.text)
            if verb and self.asserted(number, verb.start()) is None:
                return sentence.text
        return self.analysed[0][0].text if self.analysed else ""


EXCERPT = 400


WINDOW_BEFORE, WINDOW_AFTER = 70, 40


WORKLOAD = [
    # the input moved from one length to another: "把输入从 8k 拉到 32k", "raised the prompts
    # from 8k to 32k": the run's is the second
    (
        re.compile(
            r"(?:输入|上下文)[^，,。;；\d]{0,6}从\s*\d+(?:\.\d+)?\s*k\s*(?:拉|提|加|增|扩|放)?(?:长|大|高)?"
            r"(?:到|至)\s*(?P<i>\d+(?:\.\d+)?)\s*k",
            re.I,
        ),
        "i",
    ),
    (
        re.compile(
            r"\b(?:inputs?|prompts?|contexts?)\s+(?:[\w-]+\s+){0,3}?from\s+\d+(?:\.\d+)?\s*k\s+"
            r"(?:tokens?\s+)?to\s+(?P<i>\d+(?:\.\d+)?)\s*k",
            re.I,
        ),
        "i",
    ),
    (
        re.compile(
            r"(?P<i>\d+(?:\.\d+)?)\s*k\s*(?:-?\s*tokens?)?(?:\s+of)?[\s-]*(?:input|in|prompt|输入)s?(?:\s+tokens?)?\W{0,4}(?:and\s+|/\s*|,\s*|、)?"
            r"(?P<o>\d+(?:\.\d+)?)\s*k\s*(?:-?\s*tokens?)?(?:\s+of)?[\s-]*(?:output|out|输出)",
            re.I,
        ),
        "io",
    ),
    (re.compile(r"(?<![\w.])(?P<i>\d+(?:\.\d+)?)k\s*/\s*(?P<o>\d+(?:\.\d+)?)k\b", re.I), "io"),
    # an arrow from input to output: "8k → 1k", "8192 -> 1024 tokens"
    (
        re.compile(
            r"(?<![\w.])(?P<i>\d+(?:\.\d+)?)\s*k\s*(?:→|->|⇒|➝|⟶)\s*(?P<o>\d+(?:\.\d+)?)\s*k\b",
            re.I,
        ),
        "io",
    ),
    (
        re.compile(
            r"(?<![\w.,])(?P<i>\d{1,3}(?:,\d{3})+|\d{3,6})\s*(?:→|->|⇒|➝|⟶)\s*"
            r"(?P<o>\d{1,3}(?:,\d{3})+|\d{3,6})(?![\d,.])"
        ),
        "io-tokens",
    ),
    # the label before the number: "输入 1,000、输出 8,000 个 token", "输入1k输出8k"
    (
        re.compile(
            r"输入\s*(?P<i>\d+(?:\.\d+)?)\s*k\s*(?:个\s*)?(?:tokens?)?\s*[、,，/和]?\s*输出\s*(?P<o>\d+(?:\.\d+)?)\s*k",
            re.I,
        ),
        "io",
    ),
    (
        re.compile(
            r"输入\s*(?P<i>\d{1,3}(?:,\d{3})+|\d{3,6})\s*(?:个\s*token)?\s*[、,，/和]?\s*"
            r"输出\s*(?P<o>\d{1,3}(?:,\d{3})+|\d{3,6})",
            re.I,
        ),
        "io-tokens",
    ),
    # the number before its label: "1024个输入token、8192个输出token"
    (
        re.compile(
            r"(?P<i>\d{1,3}(?:,\d{3})+|\d{3,6})\s*个?\s*输入\s*(?:tokens?)?\s*[、,，/和与]?\s*"
            r"(?P<o>\d{1,3}(?:,\d{3})+|\d{3,6})\s*个?\s*输出",
            re.I,
        ),
        "io-tokens",
    ),
    (
        re.compile(
            r"(?P<i>\d{1,3}(?:,\d{3})+|\d{3,6})\s*(?:input|in)\s*/\s*"
            r"(?P<o>\d{1,3}(?:,\d{3})+|\d{3,6})\s*(?:output|out)\b",
            re.I,
        ),
        "io-tokens",
    ),
    (
        re.compile(
            r"(?P<i>\d{1,3}(?:,\d{3})+|\d{3,6})\s*(?:input\s+)?tokens?\s*(?:in|of input|input|输入)\b\W{0,6}"
            r"(?:and\s+)?(?P<o>\d{1,3}(?:,\d{3})+|\d{3,6})\s*(?:tokens?\s*)?(?:out|of output|output|输出)",
            re.I,
        ),
        "io-tokens",
    ),
    (
        re.compile(
            r"(?P<i>\d{1,3}(?:,\d{3})+|\d{3,6})\s*(?:input|prompt)\s+tokens?\W{0,6}(?:and\s+|with\s+)?"
            r"(?P<o>\d{1,3}(?:,\d{3})+|\d{3,6})\s*(?:output|generated)(?:\s+tokens?)?\b",
            re.I,
        ),
        "io-tokens",
    ),
    (
        re.compile(
            r"(?P<i>\d{1,3}(?:,\d{3})+|\d{3,6})[- ]tokens?\s+(?:inputs?|prompts?)\W{0,6}"
            r"(?:and\s+|with\s+|followed by\s+|plus\s+)?(?:an?\s+)?"
            r"(?P<o>\d{1,3}(?:,\d{3})+|\d{3,6})[- ]tokens?\s+(?:of\s+)?(?:generated\s+)?"
            r"(?:outputs?|generations?|answers?|responses?|completions?)",
            re.I,
        ),
        "io-tokens",
    ),
    (
        re.compile(
            r"(?P<i>\d{1,3}(?:,\d{3})+|\d{4,6})[- ]tokens?\s+(?:of\s+)?(?:inputs?|prompts?|contexts?)",
            re.I,
        ),
        "i-tokens",
    ),
    # the length after the input: "prompts of 32,768 tokens", "inputs of 32k tokens"
    (
        re.compile(
            r"\b(?:inputs?|prompts?|contexts?)\s+of\s+(?P<i>\d{1,3}(?:,\d{3})+|\d{4,6})\s*-?\s*tokens?\b",
            re.I,
        ),
        "i-tokens",
    ),
    (
        re.compile(r"\b(?:inputs?|prompts?|contexts?)\s+of\s+(?P<i>\d+(?:\.\d+)?)\s*k\b", re.I),
        "i",
    ),
    (
        re.compile(
            r"(?P<i>\d+(?:\.\d+)?)\s*k(?:[- ]tokens?)?[\s-]*(?:long[- ])?(?:input|context|prompt|长?输入|上下文)",
            re.I,
        ),
        "i",
    ),
    # "上下文最长到 64k", "contexts up to 128k": the longest input a run used
    (
        re.compile(
            r"(?:上下文|context(?:s| length)?)[^，,。;；\d]{0,8}?(?P<i>\d+(?:\.\d+)?)\s*k\b", re.I
        ),
        "i",
    ),
]


# a workload said of the figures another is set against: "与 8k/1k 口径下的官方成绩不可直接比较",
# "unlike OpenAI's 8k/1k figures"
COMPARAND_BEFORE = re.compile(
    r"(?:与|和|跟|同|(?:远|略|明显)?(?:低于|高于|不及|不如|逊于|优于)|\bunlike|\bthan|\bversus|\bvs\.?"
    r"|\bcompared (?:with|to)|\b(?:well |far )?(?:below|above|short of))\s*"
    r"(?:the\s+|openai(?:'s|’s)\s+|官方(?:的)?)?$",
    re.I,
)
# "与去年官方的 8k/1k 不同", "unlike the 8k/1k OpenAI used": a workload named to be set apart
SET_APART_BEFORE = re.compile(r"(?:与|和|跟|同)[^，,。；;]{0,16}$")
DIFFERENT_AFTER = re.compile(
    r"\s*(?:的)?\s*(?:负载|设置|口径|场景|配置)?\s*(?:不同|不一样|有别|有所不同)"
)
OFFICIAL_AFTER = re.compile(
    r"\s*(?:单轮)?\s*(?:口径|负载|设置)?\s*(?:下|上)?\s*的?\s*(?:官方|openai|原始|发布会)"
    r"|\s+(?:figures|numbers|results)\b"
    r"|\s*(?:口径|负载|设置)?\s*(?:下|上)?\s*的\s*(?:数字|成绩|结果|数据)",
    re.I,
)


@lru_cache(maxsize=256)
def _workload_spans(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(m.span() for pattern, _ in WORKLOAD for m in pattern.finditer(text))


def _in_workload(text: str, at: int) -> bool:
    """Does a workload's notation ("8192 → 1024", "8k input and 1k output") hold position `at`?"""
    return any(start <= at < end for start, end in _workload_spans(text))


def _comparands(text: str, match: re.Match) -> bool:
    """Is the workload at `match` said of the figures the run is set against, or set apart from
    the run's ("与去年官方的 8k 输入、1k 输出不同，…选了 1k/8k")?"""
    return bool(
        COMPARAND_BEFORE.search(text, max(0, match.start() - 24), match.start())
        and OFFICIAL_AFTER.match(text, match.end())
    ) or bool(
        SET_APART_BEFORE.search(text, max(0, match.start() - 24), match.start())
        and DIFFERENT_AFTER.match(text, match.end())
    )


def _part_of(text: str, quantity: Quantity) -> str:
    """The stretch of a sentence between semicolons that holds the figure ("峰值 1.87 万；在等交互
    口径下 1.14 万": the second stretch's condition is not the first figure's)."""
    start = max((m.end() for m in SEMICOLONS.finditer(text, 0, quantity.start)), default=0)
    end = SEMICOLONS.search(text, quantity.end)
    return text[start : end.start() if end else len(text)]


def _unit_named_before(text: str, bare: tuple) -> Quantity | None:
    """ "峰值每千瓦吞吐 82,100", "throughput per kW 82,100": a bare number right after the words
    of its own cell or clause that name a unit is in that unit."""
    start, end, _ = bare
    lead = CELL_BREAK.split(text[max(0, start - 24) : start])[-1]
    if not lead.strip():
        return None
    if not lead.endswith((" ", "\u3000")) and not CJK_END.search(lead):
        return None  # the words run into the number: "x86,100" is no unit's figure
    if RESPECTIVE_WORD.search(lead) or LIST_GOES_ON_AFTER.match(text, end):
        return None  # "每千瓦吞吐分别为 85,448、19,600、18,200": a list, read as one elsewhere
    unit = heading_unit(lead)
    if (
        (unit is None or unit[0] == "power")
        and THROUGHPUT_WORD.search(lead)
        and not TABLE_ROW.fullmatch(text.strip().rstrip("."))
    ):
        # "Kimi K2.5 每千瓦吞吐测得 1.76 万": tokens/s per kW, not kilowatts
        unit = heading_denominator(lead) or unit
    return _bare_in(text, bare, unit) if unit is not None else None


CELL_BREAK = re.compile(r"[;；:：,，。(（]")
# throughput named without its tokens: "每千瓦吞吐", "throughput per kW"
THROUGHPUT_WORD = re.compile(r"吞吐|\bthroughput\b", re.I)
RESPECTIVE_WORD = re.compile(r"分别|各自|respectively", re.I)
LIST_GOES_ON_AFTER = re.compile(r"\s*(?:[、/]|[,，]\s*\d)")
CJK_END = re.compile(r"[\u4e00-\u9fff]\s*$")


def _bare_in(text: str, bare: tuple, unit: tuple[str, float]) -> Quantity:
    """A bare number read in a unit (quantity, what one of it is in the canonical unit), the other
    side's when a comparison leads it ("1,459 tokens per second per user versus 535 on GPT-OSS")."""
    start, end, value = bare
    return Quantity(start, end, round(value * unit[1], 9), unit[0], _comparator_before(text, start))


SEMICOLONS = re.compile(r"[;；]")
# a short label before a figure: "Jalapeño: ", "结果："
LABEL_LEAD = re.compile(r"[^:：.。;；]{1,30}[:：]\s*")
# a line naming the unit of a table's cells: "Units: tokens per second per kW", "Metric: …", "单位：…"
UNITS_LINE = re.compile(r"\W*(?:units?|metric|measure|单位|指标|口径)\s*[:：]\s*(?P<unit>.+)", re.I)

WORKLOAD_KINDS = [
    # (not the chat mix, "the usual long-prompt, short-answer mix")
    (
        "long-context",
        re.compile(
            r"long[- ]context|long[- ]prompts?(?![,\s]+(?:and\s+)?short[- ](?:answers?|outputs?|completions?|responses?|repl(?:y|ies)))"
            r"|长上下文|长文本|长序列",
            re.I,
        ),
    ),
    (
        "multi-turn",
        re.compile(
            r"multi[- ]turn|multi[- ]round|多轮"
            r"|\b(?:\d+|two|three|four|five|six|eight|ten|twelve|fifteen|twenty|thirty|fifty)[- ]turn\b"
            r"|\b(?:[2-9]|\d\d+|two|three|four|five|six|eight|ten|twelve|twenty)\s+turns?\s+(?:of|into)"
            r"\s+(?:a\s+|the\s+)?(?:conversations?|chats?|dialogues?)\b"
            r"|(?:[2-9]|\d\d+|[二三四五六八十两]+)\s*轮(?:的)?(?:对话|会话)",
            re.I,
        ),
    ),
    ("agentic", re.compile(r"\bagentic\b|\bagent (?:workloads?|traces?|tasks?)\b|智能体", re.I)),
]


LONG_CONTEXT_TOKENS = 30_000  # "32k" whether it means 32,768 or 32,000 tokens


COMPARED_WITH = re.compile(
    r"(?:\bover|\bthan|\bvs\.?|\bversus|\bagainst|\bcompared (?:with|to)|\brelative to|\bbeats?|\bbeat"
    r"|\bmatching|\boutperform\w*|\bahead of|\bbehind|\babove|\bbelow|对照(?:组|系统)?(?:是|为)?[^，,。；;]{0,8}|\bcompared against|对比|相比|相较|比|较|对|超过|领先|胜过|高于|低于"
    r"|\d\s*(?:x|×|times))\s*(?:(?:the|same|its|their|both|that of|on|in)\s+){0,3}(?:\w+(?:'s|’s)\s+)?"
    r"(?:(?:\d+\s*月|上一?代|此前|之前|早先|去年|原来|最初)的?\s*){0,2}$"  # "比去年 8 月的 A0"
    # the base of a multiple: "1.4 to 1.8 times the throughput per watt of the GB200"
    r"|\d\s*(?:x|×|times)\s+the\s+(?:[\w-]+\s+){1,4}?(?:of|for|on)\s+(?:the\s+|its\s+|their\s+)?$",
    re.I,
)


def _shared_unit(text: str, after: int, last: Quantity) -> list[Quantity]:
    """ "1,392, 702 and 731 tokens per second": the bare numbers listed right before a figure, in
    the figure's unit (a list of the same scale), then the figure; [] when there are none."""
    listed: list[tuple[int, int, float]] = []
    edge = last.start
    for bare in reversed([b for b in bare_numbers(text) if after < b[0] < last.start]):
        if not LIST_JOINT.fullmatch(text, bare[1], edge):
            break
        listed.insert(0, bare)
        edge = bare[0]
    if not listed:
        return []
    out = [Quantity(start, end, value, last.quantity, False) for start, end, value in listed]
    if any(not 1 / 10 <= q.value / last.value <= 10 for q in out if last.value):
        return []
    return [*out, last]


def _compared_before(text: str, at: int) -> bool:
    """Is the name at `at` the other side of a comparison ("over GB200", "against the same
    Nvidia", "1.4x the Nvidia systems", "对比英伟达")?"""
    window = text[max(0, at - 48) : at]
    if COMPARISON_NAMED.search(window[-32:]):
        return False  # "对照的 GB200 为 1.80 秒": the comparison's device, the topic of its clause
    return bool(COMPARED_WITH.search(window) or COMPARED_ZH.search(window))


def compared_clause(sentence, at: int) -> bool:
    """Does the clause at `at` give the other side of a comparison (", against 131 for the
    GB300"), taking a list of figures split by commas as one clause (", against 535, 169 and 182
    on the Nvidia systems")?"""
    clauses = sentence.clauses
    head = next((i for i, c in enumerate(clauses) if c.start <= at < max(c.end, c.start + 1)), 0)
    while head and LIST_GOES_ON.match(sentence.text, clauses[head].start):
        head -= 1
    clause = clauses[head] if clauses else None
    return clause is not None and bool(
        COMPARISON.match(sentence.text[clause.start : clause.end].lstrip())
    )


def _range_end(text: str, quantity: Quantity) -> bool:
    """Is a single figure one end of a span of them ("1.03 到 1.65 秒", "0.9 to 1.4 seconds")?"""
    if not isinstance(quantity.value, int | float):
        return False
    return bool(
        RANGE_BEFORE.search(text, max(0, quantity.start - 24), quantity.start)
        or RANGE_AFTER.match(text, quantity.end)
    )


# (not "从 1.08 秒降到 0.98 秒", "from 13.4 to 14.2": a change; not "K2.5 to 19,300")
RANGE_BEFORE = re.compile(
    r"(?<![从由\w.])(?<!从 )(?<!from )(?!(?:19|20)\d\d\b)\d[\d.,]*\s*(?:秒|毫秒|s|ms|months?)?\s*"
    r"(?:到|至|~|–|to)\s*$",
    re.I,
)
RANGE_AFTER = re.compile(r"\s*(?:到|至|~|–)\s*\d", re.I)


def _clause_around(text: str, at: int) -> tuple[int, int]:
    """The clause a place in a sentence is in, between semicolons or a contrast ("1.12 s at
    8k/1k; 1.21 s was its figure at 1k/8k")."""
    starts = [m.end() for m in CLAUSE_BREAK.finditer(text, 0, at)]
    after = CLAUSE_BREAK.search(text, at)
    return (starts[-1] if starts else 0), (after.start() if after else len(text))


CLAUSE_BREAK = re.compile(r"[;；]|\s[—–]\s|\b(?:but|while|whereas)\b|(?:但是|但|而)(?=\S)")


def _in_quotes(text: str, quantity: Quantity) -> bool:
    """Does the figure stand alone in quotation marks ("“104 倍”", "the '104x' headline")?"""
    before = text[max(0, quantity.start - 2) : quantity.start].rstrip()
    after = text[quantity.end : quantity.end + 2].lstrip()
    if not (before and before[-1] in OPEN_QUOTES and after and after[0] in CLOSE_QUOTES):
        return False
    opened = max(0, quantity.start - 2) + len(before) - 1  # where the quotation mark is
    return not GIVES_VALUE.search(text, 0, opened)


OPEN_QUOTES = "“「『\"'‘"
CLOSE_QUOTES = "”」』\"'’"
# a quoted figure a party's words give as the value, not a claim named: 'puts it at "1.5 to 1.8
# times"', 提升到“1.8 倍”
GIVES_VALUE = re.compile(
    r"\b(?:puts?|putting|pegs?|pegged|places?|placed|sets?)\s+"
    r"(?:[\w’'-]+\s+){1,6}?at\s*$|(?:提升|提高|降低|下降|回落|收窄|缩小)(?:到|至)\s*$",
    re.I,
)


def _row_label(text: str) -> tuple[str, float] | None:
    """The denominator a table row's label gives every cell of the row ("GPT-OSS 120B 单用户速度:
    官方 1,459 tok/s; 实测 1,380 tok/s", a row as `text.TABLE` reads it)."""
    colon = ROW_LABEL.match(text)
    if colon and ";" in text[colon.end() :]:
        return heading_denominator(colon.group(1))
    topic = TOPIC_LEAD.match(text)  # "单用户生成速度方面，…", "On per-user speed, …"
    return heading_denominator(topic.group(1) or topic.group(2)) if topic else None


@cache
def _owners_list(owner: re.Pattern) -> re.Pattern:
    """The owner's possessive closing what leads a list in ("… were OpenAI's:", "都是官方的：")."""
    return re.compile(
        rf"(?:\b(?:were|are|was|is|remain|remained)\s+(?:all\s+|still\s+)*|(?:都|全|仍)是)"
        rf"(?:{owner.pattern})(?:'s|’s|的)\s*(?:own\s+)?$",
        re.I,
    )


@cache
def _owners_word(owner: re.Pattern) -> re.Pattern:
    """The owner's possessive or speech just before a figure ("OpenAI's 19,600", "官方说"), or a
    table column named for the owner ("DeepSeek R1: OpenAI (25 Aug) 700; Tallis (Oct) …")."""
    return re.compile(
        rf"(?:{owner.pattern}|the company)"
        r"(?:(?:'s|’s| says| said|的|说|称)\s*\S{0,6}|\s*\([^()]{0,24}\)\s*"
        # "OpenAI 8 月那个被刷屏的“104 倍”": the owner's figure of a time named before it
        r"|\s*(?:\d{1,2}\s*月|去年|此前|当初|早先)\s*(?:那个|那组|的)[^，,。；;]{0,8})$",
        re.I,
    )


@cache
def _owner_reported(owner: re.Pattern) -> re.Pattern:
    """A clause that opens on the owner reporting: every figure in it is the owner's word."""
    return re.compile(
        rf"\W*(?:{owner.pattern})(?:(?:'s|’s)?\s+(?:\w+\s+)?(?:had\s+|has\s+|originally\s+)?"
        r"(?:reported|published|posted|claimed|quoted|listed|cited)\b"
        r"|(?:'s|’s)\s+(?:[\w-]+\s+){0,2}(?:figures?|numbers?|results?|claims?)\s+(?:was|were|is|are|of)\b"
        # "OpenAI 8 月公布的成绩——…"
        r"|\s*(?:\d{1,2}\s*月|去年|此前|当初|早先)?\s*(?:份)?\s*(?:公布|发布|宣布|给出)"
        r"(?:的?(?:成绩|数据|数字|结果|倍数|数值|指标)|(?=\s*(?:约|~|≈)?\s*\d)))"  # (or a table cell: "OpenAI 8 月公布 1.5–1.9 倍")
        # a column of the owner's dated figures: "OpenAI 2026 年 8 月 104.3 倍", "OpenAI, Aug 2026 85,448"
        r"|,?\s*(?:(?:20\d\d\s*年\s*)?\d{1,2}\s*月|(?:aug(?:ust)?\.?|june?|july?|sept?(?:ember)?\.?)\s+20\d\d)"
        r"\s*(?=(?:约|~|≈)?\s*\d)",
        re.I,
    )


def _answers_question(text: str, before: str) -> bool:
    """Is the sentence an answer ("A: 71 percent …") to the question before it?"""
    return bool(ANSWER_LINE.match(text)) and before.rstrip().endswith(("?", "？"))


ANSWER_LINE = re.compile(r"\W*(?:a|答|回答)\s*[:：]", re.I)


def _may_measure(metric, quantity: Quantity, text: str, before: str = "") -> bool:
    """Can this figure of this sentence be of this metric: its quantity, no excluding word near it,
    no ruling-out word in the sentence, and the words the metric needs (in it or `before`)?"""
    # an excluding word of another clause ("token 间隔为 0.76 毫秒，端到端 1.14 秒") is not near
    start = _after_figure_before(
        text, quantity, max(quantity.start - 30, _comma_start(text, quantity.start))
    )
    ends = [i for i in (text.find(c, quantity.end) for c in ",;，；") if i >= 0]
    # (what the sentence says the figure is, to its clause's end: "the 85% figure is OpenAI's
    # target for the end of the year")
    reach = 60 if FIGURE_IS.match(text, quantity.end) else 20
    near = text[start : min([quantity.end + reach, *ends])]
    return (
        metric.quantity == quantity.quantity
        and not (metric.exclude and metric.exclude.search(near))
        and not (metric.unless and metric.unless.search(text))
        and not (metric.needs and not metric.needs.search(text) and not metric.needs.search(before))
    )


def _comma_start(text: str, at: int) -> int:
    """Where the stretch of the sentence around `at` starts, after its last comma or semicolon."""
    return max(text.rfind(c, 0, at) for c in ",;，；") + 1


# what joins two figures in one clause: "0.74 ms between tokens and 1.09 s end to end"
FIGURE_JOIN = re.compile(r"\s(?:and|while|whereas)\s|[、和及]", re.I)


def _after_figure_before(text: str, quantity: Quantity, start: int) -> int:
    """Where a figure's own words may start: after `start`, and past a join that follows another
    figure of its clause ("0.74 ms between tokens and 1.09 s end to end": the words before "and"
    are the first figure's)."""
    clause = _comma_start(text, quantity.start)
    ends = [
        q.end
        for q in quantities(text)
        if clause <= q.end <= quantity.start and q.start != quantity.start
    ]
    if not ends:
        return start
    joins = [m.end() for m in FIGURE_JOIN.finditer(text, max(ends), quantity.start)]
    return max(start, joins[0]) if joins else start


# the figure as a sentence's subject: "85% figure is", "85% was", "85% 是"
FIGURE_IS = re.compile(
    r"\s*(?:(?:figure|number|reading|value|one)\s+)?(?:is|was|are|were|remains|stays)\b|\s*(?:是|为)",
    re.I,
)


MAGNITUDE = 10  # a figure this many times off the claim's value measures something else


def _share_of(published, factor: float):
    """That share of a published single figure; None for a range or no figure."""
    if not isinstance(published, int | float) or isinstance(published, bool):
        return None
    return round(published * factor, 6)


def _plausible(value, baseline) -> bool:
    """Is a figure within an order of magnitude of the claim's value (when it has a number)? A
    re-measurement moves a figure by percents; "1 度电约可产出 6552 万个 token" or "1 PFLOPS =
    1000 TFLOPS" are other quantities, or arithmetic."""
    numbers = baseline if isinstance(baseline, list) else [baseline]
    if not numbers or not all(isinstance(v, int | float) and v > 0 for v in numbers):
        return True
    values = value if isinstance(value, list) else [value]
    return all(
        isinstance(v, int | float) and min(numbers) / MAGNITUDE <= v <= max(numbers) * MAGNITUDE
        for v in values
    )


def _in_unit_of(text: str, value: float, previous: Quantity) -> float:
    """A bare number in the unit of an earlier figure of its sentence: the factor that figure's
    own number was converted by ("21.9 million … per megawatt" is 21,900 per kW)."""
    lead = NUMBER_LEAD.match(text, previous.start, previous.end)
    if not lead or not isinstance(previous.value, float):
        return value
    raw = float(lead.group(1).replace(",", "")) * SCALES.get((lead.group(2) or "").lower(), 1)
    return round(value * previous.value / raw, 9) if raw else value


NUMBER_LEAD = re.compile(
    r"[~≈约]?\s*(\d[\d,]*(?:\.\d+)?)\s*(million|billion|thousand|万|亿)?", re.I
)
SCALES = {"million": 1e6, "billion": 1e9, "thousand": 1e3, "万": 1e4, "亿": 1e8}


def _start(figure) -> int:
    """Where a figure starts: a Quantity, or a bare number's (start, end, value)."""
    return figure.start if isinstance(figure, Quantity) else figure[0]


def _holds(stated, wanted: tuple) -> bool:
    if stated is None:
        return False
    if isinstance(stated, tuple):
        return any(s in wanted for s in stated)
    return stated in wanted


def _own_workload(around: dict, stated: dict, before: dict) -> dict:
    """Conditions said around a figure, overridden by those its own words state; an input length
    said before the figure in its sentence replaces the kind of workload said around it ("the
    institute's 32k-input run. … GPT-OSS at 8k/1k, 82,300": not a long-context figure; not
    "…, 9,840, roughly half what OpenAI reported for 8k prompts")."""
    if "isl" in before and "workload" not in stated:
        around = {k: v for k, v in around.items() if k != "workload"}
    return {**around, **stated}


def _merge(held: dict, stated: dict) -> dict:
    """The run's conditions across sentences; a condition said two ways is not known."""
    out = dict(held)
    for key, value in stated.items():
        if key in out and out[key] != value and key != "workload":
            out[key] = None
        elif key == "workload" and key in out and out[key]:
            out[key] = tuple(sorted(set(out[key]) | set(value)))
        else:
            out[key] = value
    return {k: v for k, v in out.items() if v is not None}


def _mismatch(claim: dict, stated: dict) -> str:
    """The conditions a figure states that differ from the claim's; "" when none does."""
    differ = []
    for key in ("isl", "osl"):
        if key in claim and key in stated and abs(stated[key] - claim[key]) > claim[key] * 0.05:
            differ.append(f"{key} {stated[key]:,} (claim: {claim[key]:,})")
    kinds = stated.get("workload") or ()
    if kinds and "isl" in claim:
        differ.append(f"workload {', '.join(kinds)}")
    for key, value in stated.items():
        if key in ("isl", "osl", "workload") or key not in claim:
            continue
        if value != claim[key]:
            differ.append(f"{key} {value} (claim: {claim[key]})")
    return "; ".join(differ)


def _in_unit(quantity: Quantity, ref: ClaimRef):
    """The figure in the claim's unit; None when the quantities differ."""
    unit = UNITS.get(ref.unit)
    if quantity.quantity in ("ratio-range", "percent-range"):
        return quantity.value if unit and unit[0] in ("ratio", "percent") else None
    if unit is None or unit[0] != quantity.quantity:
        return None
    return round(quantity.value / unit[1], 6)


def _nearest(pattern: re.Pattern, window: str, at: int) -> tuple[int, int] | None:
    """How near the pattern's nearest cue stands to `at`; of two as near, the longer is nearer
    ("词间延迟" is a time between tokens before it is a "延迟")."""
    distances = [
        (min(abs(m.start() - at), abs(m.end() - at)), m.start() - m.end())
        for m in pattern.finditer(window)
    ]
    return min(distances) if distances else None


def _excerpt(text: str) -> str:
    return " ".join(text.split())[:EXCERPT]


ROW_LABEL = re.compile(r"([^:;。]{1,60}):\s")
# a sentence that opens on what its figures are: "单用户生成速度方面，…", "As for per-user speed, …"
TOPIC_LEAD = re.compile(
    r"\W*([^，,。;；:：]{1,30})方面\s*[，,]|\W*(?:on|as for|in terms of)\s+([^,;.]{1,40}),", re.I
)


# between a model's name and its bare figure: "landed at", "came in at", "为", ":", "is"
RAN_TO = re.compile(
    r"\b(?:did|got|hit|managed|reached|measured|clocked|recorded|saw|came in at|landed at"
    r"|topped out at)\s+(?:about\s+|around\s+|roughly\s+|just\s+)?$",
    re.I,
)
FOR_MODEL = re.compile(r"\s+(?:for|on|with)\s+", re.I)
BARE_LEAD = re.compile(
    r"\S.*?(?:\s(?:landed at|came in at|reached|hit|at|is|was|of|with)|为|是|达到|:|：)?\s*"
    r"(?:about|around|roughly|约)?\s*",
    re.I | re.S,
)


PEAK = re.compile(r"\bpeak\b|\bmaximum\b|峰值|最高|最大", re.I)


QUOTED = re.compile(
    r"官方|自报|宣称|\bofficial\b|\bclaimed\b|\badvertised\b|\bpublished\b|\bquoted\b"
    # the first results retold: "OpenAI 去年 8 月公布的数字分别是"
    r"|(?:去年|\d+\s*月)[^，,。；;]{0,8}(?:公布|发布)的",
    re.I,
)


# a word that puts what follows on the other side of a comparison ("1.71 s versus 5.31 s on GB300")
COMPARISON = re.compile(
    r"\b(?:vs\.?|versus|than|against|compared (?:with|to)|relative to)(?!\w)|对比|相比|相较|比"
    # "…, edging past the 85,448 OpenAI published": the other side
    r"|\b(?:(?:edg|inch|creep|pull|slipp?)\w*\s+)?(?:past|ahead of|beating|topping|trailing|short of)\b",
    re.I,
)
# a clause that carries on a list of figures the clause before began ("…, against 535, 169 and 182")
LIST_GOES_ON = re.compile(r"[\s,，、]*(?:and\s+|和|及)?\d")


# the figure, then whose it is: "… 104x is still OpenAI's alone"
IS_WHOSE = re.compile(
    r"\S{0,3}\s+(?:is|are|was|were|remains?|stays?)\s+(?:still\s+|only\s+|just\s+|entirely\s+)*",
    re.I,
)
# a sentence led by the figures it goes by: "按官方 8 月数据，…", "According to OpenAI's figures, …"
BY_FIGURES_OF = re.compile(
    r"^\W*(?:按|据|根据|按照|依照|依据|according to|going by|based on)\s*([^，,。；;:：]{1,30}?)\s*"
    r"(?:的)?\s*(?:公布的?|发布的?|published\s+|official\s+)?"
    r"(?:数据|数字|口径|图表|成绩|figures|numbers|data|charts?|results)(?=[\s，,])",
    re.I,
)
OFFICIAL = re.compile(r"官方|原厂|厂商|\b(?:the company|official|the vendor|the maker)\b", re.I)
QUOTED_LIST = re.compile(
    r"\b(?:published|official|headline|advertised|claimed|launch|reported)\s+(?:[\w-]+\s+){0,2}"
    # (not "在其技术博客公布了结果：", a party publishing its own)
    r"(?:figures|numbers|results|data)\b|(?:官方的?|(?:公布|发布|宣称)的)[^，,。；;:：]{0,12}(?:数据|数字|成绩|结果)",
    re.I,
)


# a name that says it ran it: "SemiAnalysis said on Tuesday it has now operated Jalapeño itself"
FOR_MODELS = re.compile(r"[^,;.\d]{0,30}?\b(?:for|on|of)\s+(?:the\s+)?", re.I)


# "比跑出 8 月成绩的 A0 高 31%": what follows 比 and its description is the other side
# the device a comparison used, named as the topic: "对照的 GB200", "去年对比中使用的 GB300"
COMPARISON_NAMED = re.compile(
    r"(?:作为)?(?:对照|对比|参照)(?:组|系统)?(?:中|里)?(?:使用|用到|采用|所用)?的\s*$"
)
COMPARED_ZH = re.compile(r"(?:比|较|相较于|相比于)[^，,。；;:：比]{1,16}的\s*$")


RAN_KEYS = frozenset({"workload", "silicon", "mtp"})  # what a measured figure says its run was


# a correction's word for the figure the earlier report got wrong: "…, not 1.12 seconds as
# originally reported"
NOT_AS_REPORTED = (
    r",\s*not\s+[\d.,]+\s*\w*\s+as\s+(?:originally|previously|first|earlier|initially)\s+"
    r"(?:reported|stated|published|written|given)\b"
)
CORRECT_VALUE = re.compile(
    r"正确(?:的)?(?:数字|数据|数值|值|结果)?(?:应)?(?:为|是)|应为|实为|实际(?:上)?为|实测值(?:应)?为"
    r"|\b(?:the )?(?:correct|right|actual) (?:figure|number|value|result) (?:is|was)\b"
    r"|\bshould (?:have )?(?:read|said|been)\b|" + NOT_AS_REPORTED,
    re.I,
)
CORRECTED_AFTER = re.compile(r"[^;]{0,100}?" + NOT_AS_REPORTED, re.I)


MTP_HINT = re.compile(r"\bmtp\b|multi[- ]token prediction|多\s*token\s*预测", re.I)


# the silicon a party had in hand, said before its run: "had a sled of B0 parts for ten days",
# "拿到了两颗 B0 步进的 Jalapeño 样片"
SILICON_HELD = re.compile(
    r"\b(?:had|has|have|got|gets|received|receives|borrowed|loaned|was lent|were lent|took delivery of)"
    r"\b[^.;]{0,50}?\b[ab]\d(?:[- ]stepping)?\b[^.;]{0,24}?\b(?:parts?|samples?|silicon|chips?|racks?"
    r"|sleds?|boards?|packages?|systems?|units?|nodes?)\b"
    r"|(?:拿到|借到|收到|借来|到手)了?[^，,。；;]{0,16}?[AB]\d[^，,。；;]{0,20}?(?:样片|芯片|机柜|板卡|工程片)",
    re.I,
)


# the next sentence speaking of the run itself: "The run used …", "该测试采用…"
RUN_AFTER = re.compile(
    r"\W*(?:the|that|this|each|both|its)\s+(?:(?:\w+\s+)?(?:run|test|measurement|benchmark|re-?run)s?)\b"
    r"|\W*(?:该|这次|本次|此次|这轮|本轮)(?:测试|复测|运行|跑分|实测)",
    re.I,
)
# a sentence about every figure of the item: "以上数据均…", "all of the figures above were…"
OF_ALL = re.compile(
    r"(?:以上|上述|所有|全部|表中|文中|这些)(?:的)?(?:数据|数字|成绩|结果|跑分)(?:均|都|全部|全都)"
    r"|\ball (?:of )?(?:the |these |those )?(?:figures|numbers|results|data)(?: above| here| in (?:the|this) (?:table|post|report))?\s+(?:were|are|was)\b"
    r"|\b(?:the|these|those) (?:figures|numbers|results)(?: above)? (?:were|are) all\b"
    # what the run was done on or with, said once for all of it: "The boards the team tested
    # were B0 samples", "Both systems were run with MTP switched on", "测试所用的板卡均为 B0 样片"
    r"|^\W*(?:the|both|all|every|each)\s+(?:(?:test|tested|review|loaner|lab's)\s+)?"
    r"(?:boards?|chips?|parts?|systems?|samples?|units?|hardware|accelerators?|runs?|tests?)\b"
    r"(?:\s+(?:[\w'’]+\s+){0,4}?(?:tested|used|measured|benchmarked|ran|had))?"
    r"\s+(?:were|was|are|is|all|both|ran|used)\b"
    r"|(?:测试|所测|实测|跑分|评测)(?:所用|用的|使用的|采用的)?的?(?:板卡|芯片|样片|系统|硬件|机器)"
    r"(?:均|都|全部|全都)?(?:是|为|采用|使用|开启|打开)"
    r"|(?:两套|两款|两个|两台|所有|全部)(?:系统|芯片|平台|机器|板卡)(?:均|都|全都)"
    # the run's workload or set-up said once: "这次采用的负载是 1k 输入", "The run used 32k prompts"
    r"|(?:这次|本次|此次|该次|这轮|本轮)(?:测试|复测|实测)?(?:所)?(?:采用|使用|用)的(?:负载|工作负载|配置|设置|输入)"
    r"|^\W*(?:the|this|that|each|every)\s+(?:run|test|workload|benchmark|measurement)s?\s+(?:used|ran at|was run at|were run at)\b"
    # the figure's own setting: "It was taken with 1,024-token prompts", "The numbers were measured at …"
    r"|^\W*(?:it|they|the\s+(?:number|figure|result|reading)s?)\s+(?:was|were)\s+(?:taken|measured|recorded|obtained|collected|run)\s+(?:with|at|on|using|under)\b",
    re.I,
)
NOT_COMPARABLE = re.compile(
    r"\b(?:is|are|was|were)\s+(?:therefore\s+|thus\s+|so\s+)?not\s+(?:directly\s+)?comparable\b"
    r"|\b(?:isn['’]t|aren['’]t)\s+(?:directly\s+)?comparable\b|\bcannot be (?:directly )?compared\b"
    r"|不可(?:直接)?(?:比|比较|对比)|不能(?:直接)?(?:比较|对比|相比|放在一起比)|没有可比性|不具(?:备)?可比性",
    re.I,
)
# a table's cell that says the row was not run: "实测倍数 未测;", "measured: not run"
NOT_RUN_CELL = re.compile(
    r"(?:未测|未跑|未复测|没测|没跑|\bnot (?:run|tested|measured)|\buntested|\bn/?a)"
    r"(?=\s*(?:[;；.。]|$))",
    re.I,
)


def _item_or_row(text: str) -> bool:
    """Is the sentence a list's item or a table's row?"""
    return bool(LIST_LINE.match(text) or TABLE_ROW.fullmatch(text))


# a table's row as normalising reads it: "Kimi K2.5 (对 GB300): 实测倍数 44.8 倍; OpenAI 56.1 倍.",
# "GPT-OSS 120B: Jalapeño (OIC) 81,900; Jalapeño (OpenAI) 85,448; …"
TABLE_ROW = re.compile(r"[^:：\n]{1,60}:\s[^;\n]*(?:;\s[^;\n]*)+")
# a row that is a label and a figure, no sentence: "Feb   52 %", "Q3 2027  71 %"
BARE_ROW = re.compile(
    r"\s*[^\s\d.。!?！？:：;；][^.。!?！？:：;；\n]{0,24}?\s+[~≈]?\d[\d.,]*\s*(?:%|[^\W\d_]{1,8})?\s*"
)
LIST_LINE = re.compile(
    r"\s*(?:[-•*·✅✔☑❌▶►👉]|\d{1,2}[.)])\ufe0f?\s|\s*(?:[一二三四五六七八九十]{1,2}|\d{1,2})、"
)


WORKLOAD_HINT = re.compile(
    r"\d\s*k\b|\d{3,}\s*(?:input|prompt|token)|上下文|输入|long[- ]context|multi[- ]turn|多轮", re.I
)


LIST_NUMBER = re.compile(r"\s*\(?\d{1,2}[.)]\s*")


LIST_JOINT = re.compile(r"\s*(?:,|、|，)?\s*(?:and|和|及|与)?\s*", re.I)


RESPECTIVELY = re.compile(r"\brespectively\b|分别(?:为|是|达到|在)?", re.I)


AFTER_BREAK = re.compile(r"[;；:：、，]|,(?!\d)")
RATIO_BEFORE = re.compile(r"\d(?:\.\d+)?\s*(?:x\b|×|倍|times\b|-fold\b)", re.I)
# between two ratios of a list, "and" ends the first one's words too ("1.7 to 3.6 times lower
# end-to-end latency and 2.1 to 4.1 times faster interactive performance")
RATIO_BREAK = re.compile(rf"{AFTER_BREAK.pattern}|\band\b|以及|和", re.I)


COMPARED_AFTER = re.compile(r"\s*(?:相比|相较|比较|对比)")
# a figure set against the one reported, then its conditions: "against 85,448 on A0 last August"
AGAINST_FIGURE = re.compile(
    r"(?:\bagainst|\bvs\.?|\bversus|\bcompared (?:with|to)|\b(?:up|down) from)\s+(?:the\s+|its\s+)?"
    r"\d[\d,.]*\s*(?:[^\s\d,;.]+\s+){0,3}?(?:on|at|with|for|in)\s+(?:the\s+)?$",
    re.I,
)
