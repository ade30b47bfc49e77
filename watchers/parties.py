"""Who measured: the parties an item names, who ran each figure, and whether it was a run of the
subject at all. Pure; mixed into `watchers.extract.Reading`."""

from __future__ import annotations

import re
from functools import lru_cache

from watchers.context import NOT_FACT, PLANNED, heading_line, open_bracket, statuses
from watchers.figures import (
    CORRECT_VALUE,
    CORRECTED_AFTER,
    NOT_RUN_CELL,
    OTHER_MODELS,
    _compared_before,
    _merge,
)
from watchers.quantities import quantities


class PartyReading:
    """The who-measured half of a reading: methods of `Reading`, which holds the state."""

    # ------------------------------------------------------------ who measured

    @property
    def measurement(self) -> tuple[str, bool, dict]:
        """(who: "independent" | "owner" | "", full: bool, the run's conditions)."""
        if not hasattr(self, "_measurement"):
            self._measurement = self._measure()
        return self._measurement

    def _measure(self) -> tuple[str, bool, dict]:
        spec = self.subject.measurement
        if spec is None and not self.subject.implies:
            return "", False, {}  # a subject with no measurement claim: nobody's run moves it
        who, conditions, named = "", {}, set()
        ran_in: set[int] = set()  # the stories a run is reported in
        named_ours = False  # a sentence reporting the run names the subject
        full = False
        verbs = self.rules.verbs
        for number, read in enumerate(self.analysed):
            sentence, text, lowered = read.sentence, read.sentence.text, read.lowered
            if verbs.narrowed(lowered) is None:
                continue  # no measuring word: nobody measures in this sentence
            spots = self._spot_checks(number)
            if spots is None or not self._on_topic(number):
                continue
            for clause in sentence.clauses:
                if any(clause.start <= at < clause.end for at in spots):
                    continue  # "SemiAnalysis watched OpenAI run it": nobody independent ran it
                found, at = self._measuring(number, clause)
                if not found:
                    continue
                who = max((who, found), key=PARTY_RANK.index)
                ran_in.add(self.sections[number])
                named_ours = named_ours or any(m.ours for m in self.mentions[number])
                conditions = _merge(conditions, self.conditions_in(text, number))
                if "negated" not in statuses(
                    read.scopes, clause.start, clause.end
                ) and not NOT_RUN_CELL.search(text, clause.start, clause.end):
                    # a row whose measured cell says "未测", "not run" names a model not run
                    # (not those of a clause that is a plan: "R1 和 Kimi 的测试将于年内完成")
                    named |= {
                        name
                        for at, name in self.models[number]
                        if not self._clause_status(number, at) & (NOT_FACT | PLANNED)
                        and not _set_apart(text, at)
                    }
                if spec and spec.full_cues:
                    # "有了，而且三款模型都有。上周某实验室…": said beside the run, too
                    full = full or any(
                        self._says_full(spec.full_cues, n)
                        for n in range(number - 2, number + 2)
                        if 0 <= n < len(self.analysed) and (n == number or not self._dated(n))
                    )
        if who in ("", "someone") and self._first_person == "independent":
            # "Q: What did you actually run? A: Two models, …": an outside interviewee's own run
            asked = [
                n
                for n in self._answers()
                if YOU_RAN.search(self.analysed[n - 1].sentence.text)
                # "Has anyone on this stage run both?" "JUN PARK (…): We did, in June."
                or (
                    ANYONE_RAN.search(self.analysed[n - 1].sentence.text)
                    and WE_DID.match(self.analysed[n].sentence.text)
                )
            ]
            if asked:
                who = "independent"
                ran_in |= {self.sections[n] for n in asked}
        if who:
            # "Q: What did you run? A: All three models, …", and the lines under a "Method"
            # heading: they describe the run
            for number in self._answers() + self._method_lines():
                named |= {
                    name
                    for at, name in self.models[number]
                    if not self._clause_status(number, at) & (NOT_FACT | PLANNED)
                }
                full = full or bool(
                    spec and spec.full_cues and self._says_full(spec.full_cues, number)
                )
        if self._tracked and self._tracked <= named:
            full = True  # every model the claims track was run
        if who == "independent" and not full and spec and spec.full_cues:
            # "The consortium covered all three models", said of the run well after it
            full = any(
                self._full_by_runner(spec.full_cues, number)
                for number in range(len(self.analysed))
                if self.sections[number] in ran_in
            )
        if full and ONE_MODEL.search(self.text):
            full = False  # "完整复现了一遍 … 模型：DeepSeek R1（仅此一款）"
        if who == "independent" and self._told_in(VENDORS_OWN, ran_in):
            # "两边的成绩都是各自厂商自己提交、自己跑的": published by a third party, run by each maker
            who = "owner"
        if who and not named_ours and self._left_out():
            return "", False, {}  # "OpenAI did not submit Jalapeño.", then MLPerf's tests
        if who and (self._left_out(ran_in) or self._told_in(LOG_REVIEW, ran_in)):
            # "本次复测未包括 Jalapeño": the run was of something else; "we re-ran OpenAI's
            # logs": arithmetic on the owner's records, no run at all
            return "", False, {}
        return who, full, conditions

    def _told_in(self, pattern: re.Pattern, within: set[int]) -> bool:
        """Does a sentence of the stories a run is reported in say what `pattern` finds (a review
        of the owner's logs, each maker running its own entry)?"""
        return any(
            pattern.search(read.sentence.text)
            for number, read in enumerate(self.analysed)
            if self.sections[number] in within
        )

    def _clause_status(self, number: int, at: int) -> set[str]:
        """The categories that take any of the clause around `at` out of plain assertion."""
        read = self.analysed[number]
        clause = read.sentence.clause_at(at)
        return statuses(read.scopes, clause.start, clause.end)

    def _method_lines(self) -> list[int]:
        """The sentences under a heading that says how the run was done ("### Method", "测试方法：")
        up to the next heading."""
        out, under = [], False
        for number, read in enumerate(self.analysed):
            text = read.sentence.text
            if HEADING.match(text) or (number and heading_line(read.sentence)):
                under = bool(METHOD_HEAD.search(text))
            elif under or SETUP_LINE.match(text):
                out.append(number)  # and a line that says what the run ran ("Models: …")
        return out

    def _answers(self) -> list[int]:
        """The sentences that answer a question about the run ("What did you run?", "测了哪些
        模型？"): the one after it, when it is no question itself."""
        out = []
        for number, read in enumerate(self.analysed[:-1]):
            text = read.sentence.text
            if "?" not in text or self.rules.verbs.narrowed(read.lowered) is None:
                continue
            asks = any(
                self.asserted(number, m.start()) == "question"
                for m in self.rules.verbs.finditer(text, 0, len(text), lowered=read.lowered)
            )
            if asks and "question" not in {s.category for s in self.analysed[number + 1].scopes}:
                out.append(number + 1)
        return out

    def _spot_checks(self, number: int) -> list[int] | None:
        """Where sentence `number` speaks of a spot check or of watching others run it; None when
        the whole sentence does, unless it sets a run of the party's own against it ("与 8 月只是
        在现场见证不同，这一次…亲手跑了", "rather than watching")."""
        spec = self.subject.measurement
        read = self.analysed[number]
        if not (spec and spec.spot_check):
            return []
        text = read.sentence.text
        found = [
            m.start()
            for m in spec.spot_check.finditer(text, lowered=read.lowered)
            if not SET_AGAINST.search(text, max(0, m.start() - 16), m.start())
        ]  # "in its own lab rather than watching someone else's test": no spot check at all
        if not found:
            return []
        return found if UNLIKE_BEFORE.search(text) else None

    def _left_out(self, within: set[int] | None = None) -> bool:
        """Does the item (the stories starting at `within`) say the subject was not part of the
        run?"""
        stepping = self.subject.with_owner  # "手上没有 B0 板子" leaves out no A0 run
        for number, mentions in enumerate(self.mentions):
            if within is not None and self.sections[number] not in within:
                continue  # a timeline's other entry: "Feb 2027 — … It has no Jalapeño hardware."
            text = self.analysed[number][0].text
            for m in mentions:
                if (
                    stepping is not None
                    and (
                        stepping.fullmatch(text[m.start : m.end])
                        # "they did not test Jalapeño's B0 stepping": the next one, not the run's
                        or stepping.match(STEPPING_OF.sub("", text[m.end : m.end + 24], count=1))
                    )
                ):
                    continue
                before = text[max(0, m.start - 40) : m.start]
                if m.ours and (
                    LEFT_OUT_BEFORE.search(before)
                    or LEFT_OUT_AFTER.match(text, m.end)
                    # "实验室没有 Jalapeño 样片": with none of its parts, nothing was run on it
                    or (NONE_OF.search(before) and ITS_PARTS.match(text, m.end))
                    # "我们没有这颗芯片": the chip itself, by its anaphor
                    or (NONE_OF.search(before) and ITS_PARTS.fullmatch(text, m.start, m.end))
                    or self._owners_side(text, m.end)
                ):
                    return True
        return False

    def _full_by_runner(self, cues: re.Pattern, number: int) -> bool:
        """Does sentence `number` say, of an outside party as its subject, that the run covered
        everything ("The consortium covered all three models")?"""
        text = self.analysed[number][0].text
        for m in cues.finditer(text):
            if self.asserted(number, m.start(), m.end()) is not None:
                continue
            before = [kind for at, kind in self._parties(text, number) if at < m.start()]
            if before and before[0] == "independent":
                return True
        return False

    def _owners_side(self, text: str, end: int) -> bool:
        """Are the subject's figures, named at `end`, said to be the owner's ("the Jalapeño
        figures are OpenAI's December runs", "Jalapeño 的数据仍是 OpenAI 的")?"""
        side = SIDE_IS.match(text, end)
        owner = self.subject.owner
        return bool(
            side
            and owner is not None
            and owner.match(text, side.end())
            # (not a state that lasted until a run: "…were OpenAI's numbers until someone else ran
            # all three models")
            and not UNTIL.search(text, side.end())
        )

    def _dated(self, number: int, start: int = 0, end: int | None = None) -> bool:
        """Is sentence `number` (its stretch from `start` to `end`) dated to the first published
        run ("去年 8 月测的三款模型都是…")? What it says is that run's, not a new one's."""
        dated = self.subject.first_published
        text = self.analysed[number][0].text
        return dated is not None and bool(
            dated.search(text, start, len(text) if end is None else end)
        )

    def _says_full(self, cues: re.Pattern, number: int) -> bool:
        text = self.analysed[number][0].text
        return any(self.asserted(number, m.start(), m.end()) is None for m in cues.finditer(text))

    def _measuring(self, number: int, clause) -> tuple[str, int]:
        """Who measures in this clause, at its first measuring word that has a party."""
        text = self.analysed[number][0].text
        fallback = None  # a run by a party not named, unless a later word in the clause names one
        # a measuring phrase starts in the clause and may run past it ("pushing A, B and C through")
        for verb in self._verbs(number):
            at = verb.start()
            if at < clause.start:
                continue
            if at >= clause.end:
                break
            status = self.asserted(number, at)
            if status == "retracted" and _gives_right_figure(text):
                status = None  # "将该团队实测的…误写为 0.47，正确数字为 0.72": the run stands
            if status is not None or not self._measures_subject(number, at):
                continue
            if self._denied_within(number, verb):
                continue  # "此次发布不包含新的测试结果": the phrase itself says there is none
            if ONLY_AGAINST.match(text, verb.end()):
                continue  # "Jalapeño, benchmarked only against Blackwell": the published comparison
            if self._in_field_name(number, [(at, verb.end())]) and not DOER_LABEL.search(
                text, verb.end(), FIELD_COLON.search(text, verb.end()).start()
            ):
                continue  # "Independent re-test: none", "第三方复测: 暂无": a field's name (not "Run by:")
            if TOPIC_BEFORE.search(text, max(0, at - 24), at) or TOPIC_HEADING.fullmatch(text):
                continue  # "对于外界关心的独立第三方复测", "二、独立第三方复测": a topic, not a run
            if self._retold(number, clause, at):
                continue  # "Jalapeño, which posted … figures in August": the baseline retold
            if number and THE_BEFORE.search(text, 0, at) and self._spot_checks(number - 1) is None:
                continue  # "…watched OpenAI engineers repeat the runs." "The runs matched…"
            who = self._who(text, at, number)
            if who == KNOWN_RUN:
                continue  # "Measured by OpenAI on A0": the owner's run already published
            if MAKERS_OWN.search(text, at, verb.end() + 4):
                who = "owner"  # "这组数据由厂商自测": a maker's test of its own, nobody outside
            if not who and self._owner_in_clause(number, clause, at):
                continue  # "It was our run, on A0" said by the owner's engineer: nothing new
            found = (
                who
                or (
                    verb.end() - at > 12
                    and bool(self._parties(text[at : verb.end()]))
                    and self._who(text, verb.end(), number).replace(KNOWN_RUN, "")
                )  # "发布了自己…的结果": the party inside the measuring phrase
                or (PARTICIPLE.match(verb.group(0)) and self._first_after(text, at, number))
                or self._same_party(number, at)
            )
            if not found and EXEC_BEFORE.search(text, 0, at) and self._owner_named_last(number):
                # "OpenAI said …" then "VP of hardware engineering Simon Achterberg wrote that B0
                # parts running GPT-OSS reached …": an executive of the owner named just before
                found = "owner"
            if not found and number in self.turns and self._dropped_subject(number, clause, at):
                found = "owner" if number in self.owner_quotes else self._first_person
                # "老周：只测了 Kimi K2.5": the speaker's own run, the owner's when the speaker is theirs
            named = TESTER_IS.match(text, at)
            if not found and named and self.subject.owner is not None:
                # "测试方为北京启衡智能": whoever is named after it, a firm no list knows included
                owner = self.subject.owner.match(text, named.end())
                found = "owner" if owner else "independent"
            if not found and RERUN.match(text, at) and not A_KIND_OF.search(text, 0, at):
                found = "someone"  # "复测", "re-tested": a new run, by a party not named
                # (not "An audit checks the books; a re-test checks the claim": a kind of run)
            if found == "independent" and NOT_THIRD_PARTY.search(text):
                found = "owner"  # "还是他们自己测的，不是第三方": the owner's own, said so
            if found == "someone" and fallback is None:
                # "#Jalapeño复测# … 在我们自己机房里跑了": a party may be named further on
                fallback = (found, at)
            elif found and found != "someone":
                return found, at
        return fallback or ("", -1)

    def _owner_in_clause(self, number: int, clause, at: int) -> bool:
        """Is the owner the last party named in the clause up to the measuring word at `at`?"""
        text = self.analysed[number][0].text
        before = [(w, k) for w, k in self._parties(text, number) if clause.start <= w <= at]
        # (not "the Company measured" in a filing by another firm: whose the company is, is
        # for the sentences before to say)
        return (
            bool(before) and before[-1][1] == "owner" and not THE_COMPANY.match(text, before[-1][0])
        )

    def _denied_within(self, number: int, verb: re.Match) -> bool:
        """Is a negation inside a measuring phrase that spans words ("发布不包含…结果")?"""
        return verb.end() - verb.start() > 4 and "negated" in statuses(
            self.analysed[number].scopes, verb.start() + 1, verb.end()
        )

    def _retold(self, number: int, clause, at: int) -> bool:
        """Is the run at `at` the first published one retold: dated to it in its clause ("posted
        per-watt figures against GB200 in August", "August's A0 runs", "8 月测的三个模型"), or
        after "repeated the figures"?"""
        text = self.analysed[number][0].text
        if (
            not RERUN.match(text, at)
            and not NOW_BEFORE.search(text, max(0, at - 12), at)
            and not SAME_SETUP.search(text, clause.start, clause.end)
            and (
                self._dated(number, clause.start, clause.end)
                # a date leading the sentence: "一年前的今天，OpenAI 公布了…", "In August, OpenAI ran…"
                or (0 < clause.start <= 16 and self._dated(number, 0, clause.start))
            )
        ):
            # (not "复现了 OpenAI 8 月公布的全部测试": a new run of the first one; not "We've now
            # run the same configuration we used last August": the date is the setup's)
            return True
        return bool(RETOLD.search(text, 0, at))

    def _dropped_subject(self, number: int, clause, at: int) -> bool:
        """Does a speaker's clause open on the measuring verb, with no subject ("只测了 Kimi K2.5",
        "后来又跑了一轮")? Its subject is the speaker."""
        text = self.analysed[number][0].text
        if THIRD_PERSON.match(text, at):
            return False  # "We build the chip; they benchmark it": someone else's runs
        if PASSIVE_AGENT.search(text, at, at + 20):
            return False  # "测试全部由 OpenAI 执行": its doer is named after it
        if self._parties(text[:at]):
            return (
                False  # "这些数字全是 OpenAI 自己跑的，…只测了 8k": the party named before runs it
            )
        label = SPEAKER.match(text) if clause.start == 0 else None
        lead = text[label.end() if label else clause.start : at]
        # (or the speaker's "we" before it: "答：上个月我们已经在技术博客上公布了…测试结果")
        return bool(DROPPED_LEAD.fullmatch(lead.strip()) or _we_ran(lead))

    def _verbs(self, number: int) -> list[re.Match]:
        """The measuring words of sentence `number`, found once."""
        found = self._verbs_in.get(number)
        if found is None:
            read = self.analysed[number]
            text = read.sentence.text
            names = [m.span() for m in self.firms.finditer(text)] if self.firms else []
            found = [
                verb
                for verb in self.rules.verbs.finditer(text, 0, len(text), lowered=read.lowered)
                if not _in_name(text, verb.start())
                and not any(a <= verb.start() < b for a, b in names)  # "Orrin Testing"
                # "in acceptance testing", "验收测试": a check of the hardware, not a benchmark
                and not NOT_A_BENCHMARK.search(text, max(0, verb.start() - 16), verb.start())
                and not PARTY_NOUN.match(text, verb.end())  # "第三方测试机构", "a testing firm"
                # a measured quantity named, not a run: "GB200/GB300 的实测功耗没有公开"
                and not MEASURED_NOUN.match(text, max(0, verb.start() - 1))
                # bring-up: "booting on the first day and running a model on the third"
                and not BRING_UP.search(text, max(0, verb.start() - 60), verb.start())
                # a person's line of work: "a researcher who runs inference benchmarks at …"
                and not LINE_OF_WORK.search(text, max(0, verb.start() - 40), verb.start())
                # a track record: "a laboratory that has tested most of the accelerators on the market"
                and not TRACK_RECORD.match(text, verb.end())
                # a check of the hardware said after the verb: "跑完高温老化和可靠性考核"
                and not CHECK_AFTER.match(text, verb.end())
                and not RUN_AS_NOUN.match(text, verb.end())
                # arithmetic: "ran its accelerator's August numbers through our data-centre sheet"
                and not THROUGH_A_SHEET.match(text, verb.end())
                # a topic left to another piece: "第三方测试另文梳理", "re-tests get a post of their own"
                and not ELSEWHERE.match(text, verb.end())
            ]
            self._verbs_in[number] = found
        return found

    def _first_after(self, text: str, at: int, number: int) -> str:
        """ "Running X on hardware it operated itself, the research firm found …": a sentence that
        opens on a participle has its party after it."""
        if text[:at].strip(" \"'“‘(—-"):
            return ""
        # (not a party owning a thing after a preposition inside the participle's phrase: "…on an
        # A0 board it received through OpenAI's research access programme, the group measured …")
        parties = [
            p
            for p in self._parties(text, number)
            if p[0] > at
            and self._stated(number, p[0])
            and not (POSSESSED.match(text, p[0]) and PREPOSITION_BEFORE.search(text, 0, p[0]))
        ]
        return parties[0][1] if parties else ""

    def _paired(self, number: int) -> bool:
        """Does the sentence put the subject and another device side by side ("X against Y",
        "在X和Y上跑")?"""
        text = self.analysed[number][0].text
        spans = []
        for pattern, ours in ((self.subject.names, True), (self.subject.others, False)):
            if pattern is not None:
                spans += [
                    (m.start(), m.end(), ours)
                    for m in pattern.finditer(text)
                    if not DEVICE_WORDS.match(text, m.end())  # "against Jalapeño's claims"
                ]
        spans.sort()
        return any(
            a[2] != b[2]
            and (
                PAIR_JOIN.fullmatch(text[a[1] : b[0]])
                # "Rubin 每兆瓦产出比他们手上的 Jalapeño 高出约 11%": compared, so both were run
                or (b[0] - a[1] <= 40 and _compared_between(text, a[1], b[0]))
            )
            for a, b in zip(spans, spans[1:], strict=False)
        )

    def _same_party(self, number: int, at: int) -> str:
        """ "It ran …", "该实验室跑了…": a pronoun or a definite party carries on the independent
        party named in the sentence before."""
        if number == 0:
            return ""
        text = self.analysed[number][0].text
        if self._parties(text[:at]) and not PRONOUN_AGENT.search(text[:at]):
            return ""  # a party of its own is named: it is not the one before
        if (
            number in self.turns
            and number in self.owner_quotes
            and not PRONOUN_AGENT.search(text[:at])
        ):
            return "owner"  # "陈屿：先跑 GPT-OSS 120B。" in the turn of the owner's engineer: their run
        clause = self.analysed[number].sentence.clause_at(at)
        if (
            number in self.turns
            and (
                _we_ran(text[clause.start : at])
                # "…我们已经…公布了…，GPT-OSS 120B 在…负载下跑了完整数据": the same speaker's clause
                or (
                    _last_pronoun(text[: clause.start])[0] == "we"
                    and len(text[clause.start : at].strip()) <= 24
                    and not SUBJECT_WORDS.search(text, clause.start, at)
                    and not SUBJECT_WORDS.match(text, at)  # "they benchmark it": its own subject
                )
            )
            and not self._parties(text[:at])
        ):
            # "答：上个月我们已经…公布了多轮对话的测试结果": the speaker's own, not the asker's party
            return self._speaker(text, number)
        if A_KIND_OF.search(text, 0, at):
            return ""  # "A 32k-input run answers a different question": a kind of run, no one's
        if self._owners_run(text, at):
            # "OpenAI's Jalapeño has published figures only on its own runs", "…reaches 1,780
            # in OpenAI's lab": the owner's, new or not
            new = self.rules.new_run.search(text) or self._beyond_claims(text)
            return "owner" if new else ""
        kinds: set[str] = set()
        for earlier in range(number - 1, max(-1, number - 4), -1):  # the nearest that names one
            if not self._verbs(earlier) and SAYS_ONLY.search(self.analysed[earlier][0].text):
                continue  # "SemiAnalysis says so plainly.": who says it, not who ran "the runs"
            kinds = {
                kind
                for where, kind in self._parties(self.analysed[earlier][0].text, earlier)
                # "在第三方复测出来之前": nobody ran anything; a correction's withdrawn sentence
                # still names who measured ("误写为 7.9 万…经核实，实测值为 8.9 万")
                if (self._done(earlier, where) or self.asserted(earlier, where) == "retracted")
                and not (
                    kind == "independent"
                    and BENCHMARK_OWNED.match(self.analysed[earlier][0].text, where)
                )  # "Measured on SemiAnalysis's InferenceX benchmark": not who ran it
            }
            if kinds:
                break
        owner = self.subject.owner
        if kinds == {"independent"} and not (
            owner is not None
            and any(OWNERS_PAGE.match(text, m.end()) for m in owner.finditer(text, 0, at))
        ):  # (not "OpenAI's updated results page now shows Jalapeño running …", "OpenAI 11 月
            # 更新的测试页面里，…已经开启了": the owner's own page reports the owner's runs)
            return "independent"
        if kinds == {"owner"} and (self.rules.new_run.search(text) or self._beyond_claims(text)):
            return "owner"
        return ""

    def _owners_run(self, text: str, at: int) -> bool:
        """Is the run at `at` said to be the subject's own ("all of Jalapeño's runs", "Jalapeño
        has published figures only on its own runs", "OpenAI's own August run") or done at the
        owner's ("reaches 1,780 … in OpenAI's lab")? A party from the sentences before does not
        carry over to it."""
        names, owner = self.subject.names, self.subject.owner
        possessors = [p for p in (names, owner) if p is not None]
        if any(
            SUBJECTS_OWN.fullmatch(text, m.end(), at)
            for possessor in possessors
            for m in possessor.finditer(text, 0, at)
        ):
            return True  # "on all of Jalapeño's runs", "in OpenAI's own August run"
        end = self._clause_end(text, at)
        if names is not None and ITS_OWN_RUNS.search(text, at, end) and names.search(text, 0, at):
            return True  # "Jalapeño … has published figures only on its own runs"
        return owner is not None and any(
            OWNER_AS_PLACE.search(text, max(0, m.start() - 12), m.start())
            for m in owner.finditer(text, at, end)
        )

    @staticmethod
    def _clause_end(text: str, at: int) -> int:
        stop = CLAUSE_STOP.search(text, at)
        return stop.start() if stop else len(text)

    def _on_topic(self, number: int) -> bool:
        """A sentence about the subject's benchmarks: it names the subject, a tracked model or a
        figure (not, say, an evaluation of a language model that mentions the chip in passing)."""
        sentence = self.analysed[number][0]
        mentions = self.mentions[number]
        if any(m.ours for m in mentions) or BOTH.search(sentence.text):
            return True  # "… operated both systems itself": the subject and what it was set against
        tracked = [name for _, name in self.models[number] if name != OTHER_MODELS]
        if tracked or any(self._metric(sentence.text, q) for q in quantities(sentence.text)):
            return True
        # a sentence naming nothing else carries on the item's story
        return not mentions and not self.models[number]

    def _measures_subject(self, number: int, at: int) -> bool:
        """The device a sentence measures is the first one it names before the measuring word
        (its subject), else the one the item was last about."""
        text = self.analysed[number].sentence.text
        # a clause of its own after a semicolon measures what it names
        start = max(text.rfind(";", 0, at), text.rfind("；", 0, at)) + 1
        end = min(
            (i for i in (text.find(";", at), text.find("；", at)) if i >= 0), default=len(text)
        )
        sentence = self.analysed[number].sentence
        # (not a firm the party is said to have ties or none with: "和英伟达、OpenAI 都没有合作关系
        # 的评测机构", "a lab with no ties to Nvidia")
        named = [
            m
            for m in self.mentions[number]
            if not TIES_AFTER.match(text, m.end)
            and not TIES_BEFORE.search(text, max(0, m.start - 40), m.start)
            and not (
                RENTS_BEFORE.search(text, max(0, m.start - 24), m.start)
                and MAKERS_HARDWARE.match(text, m.end)
            )
        ]
        adjacent = [
            m
            for m in named
            if text[m.end : at] == " "
            and DETERMINER_BEFORE.search(text, max(0, m.start - 8), m.start)
            and RUN_NOUN.match(text, at)
        ]
        if adjacent:
            return adjacent[-1].ours  # "and a GB300 re-run": the run named by its device
        mentions = [
            m
            for m in named
            if start <= m.start < at
            # (not "…不及 Jalapeño 的官方数字，但前两行是我们实测的": what was said of it, in
            # a clause before the run's)
            and not (
                DEVICE_WORDS.match(text, m.end)
                and sentence.clause_at(m.start).start != sentence.clause_at(at).start
            )
        ]
        if not mentions and any(start <= m.start < at for m in named):
            return False  # only what was said of it stands before the run: something else ran
        if not (mentions and mentions[0].ours) and self._paired(number):
            return True  # "a benchmark of Vera Rubin against Jalapeño" ran both
        if (COMPARING.match(text, at) or BOTH_SIDES.search(text, max(0, at - 8), at + 6)) and any(
            m.ours for m in mentions
        ):
            # "在 Rubin 机柜和 Jalapeño 测试板上…做了对比", "…两边都跑 GPT-OSS": a comparison runs both
            return True
        verb_end = VERB_WORD.match(text, at)
        right = verb_end.end() if verb_end else at
        object_ = [m for m in self.mentions[number] if right <= m.start <= right + 12]
        if (
            object_
            and OBJECT_GAP.fullmatch(text, right, object_[0].start)
            # (not "Trainium3 gets the outside re-test OpenAI's chip is still waiting for": a
            # noun, and what follows it is a clause of its own)
            and not NOUN_BEFORE.search(text, max(0, at - 30), at)
        ):
            # "the lab measured Jalapeño at 81.6 million": its object; "put a Rubin system and a
            # Jalapeño system through the same run": both, the subject among them
            paired = [
                m
                for m in self.mentions[number]
                if object_[0].end < m.start <= object_[0].end + 40
                and OBJECT_PAIR.fullmatch(text, object_[0].end, m.start)
            ]
            if (
                not object_[0].ours
                and COMPARISON_NOUN.match(text, object_[0].end)
                and any(m.ours for m in self.mentions[number])
            ):
                return (
                    True  # "公布第二轮 Rubin 对比测试：…OpenAI 自研推理芯片…领先 Rubin": both ran
                )
            return object_[0].ours or any(m.ours for m in paired)
        # "We had no access to a Jalapeño system, so we re-measured the comparator": a
        # negated stretch before the run names what was not run
        stated = [m for m in mentions if "negated" not in self._clause_status(number, m.start)]
        if BOTH.search(text, at, end) and any(m.ours for m in stated):
            # "rented a Rubin pod and a rack of the Broadcom-built part, and ran … on both",
            # "…借到一台 Jalapeño 机柜，…下跑了 Kimi K2.5，两边都以额定功率计"
            return True
        if stated:
            return stated[0].ours
        if mentions:  # only negated ones before: the run is of what its own clause names
            clause = self.analysed[number].sentence.clause_at(at)
            named = [m for m in self.mentions[number] if at <= m.start < clause.end]
            return named[0].ours if named else mentions[0].ours
        after = [m for m in self.mentions[number] if at <= m.start < end]
        ours = [m for m in after if m.ours]
        if ours and not after[0].ours and AND_ON.match(text, after[0].end, ours[0].start):
            return True  # "ran GPT-OSS 120B on a Vera Rubin rack … and on Jalapeño boards": both
        if after and start > 0:
            return after[0].ours  # "…; SemiAnalysis ran only the Rubin system"
        if not self.mentions[number]:
            # a run carries on the device the story was last about ("Amazon ran the tests
            # itself" after a sentence about Trainium3), or on both ("It ran all three models
            # on both")
            both = BOTH.search(text)
            if both and any(  # "Both systems were operated by Centre staff", after a list of them
                m.ours
                for earlier in range(max(self.sections[number], number - 4), number)
                for m in self.mentions[earlier]
            ):
                return True
            for earlier in range(number - 1, self.sections[number] - 1, -1):
                if not self._topics(earlier) and BOTH.search(self.analysed[earlier].sentence.text):
                    both = both or True  # "…our team at the keyboards for both. We ran …"
                if self._topics(earlier):
                    # or the one before set the two side by side ("a cloud with both Rubin
                    # racks and a Jalapeño pod published a head-to-head. It ran all three …")
                    if (
                        both
                        or self._paired(earlier)
                        or BOTH.search(self.analysed[earlier].sentence.text)
                    ):
                        return any(m.ours for m in self.mentions[earlier])
                    return self._topics(earlier)[0].ours
        if (
            number
            and any(m.ours for m in self.mentions[number - 1])
            and any(BOTH.search(self.analysed[n][0].text) for n in (number - 1, number))
        ):
            return True  # "把两者放在一起跑。这一次三款模型都测了": both devices were run
        clause = self.analysed[number].sentence.clause_at(at)
        if BOTH.search(text, at, clause.end) and any(m.ours for m in self.mentions[number]):
            return True  # "for which MLCommons ran both systems …, Rubin … than Jalapeño"
        # (not a device in a later clause with a run of its own: "在自有设备上测试三款模型，对照系统
        # 亦由该实验室重测")
        after = [m for m in after if not self._own_run(number, at, m.start)]
        if after:  # "据第三方实验室实测，玄鸟一号在…": what the run ran is named after it
            return after[0].ours
        return self.about_subject(number, at)

    def _own_run(self, number: int, at: int, named: int) -> bool:
        """Is the device at `named` run in a later clause of its own, said to be another run
        ("…，对照系统亦由该实验室重测", ", and the comparators were also re-run")?"""
        clause = self.analysed[number].sentence.clause_at(named)
        text = self.analysed[number].sentence.text
        return (
            clause.start > at
            and bool(ALSO.search(text, clause.start, clause.end))
            and any(clause.start <= verb.start() < clause.end for verb in self._verbs(number))
        )

    def _topics(self, number: int) -> list:
        """The devices sentence `number` is about: those it names, save the other side of a
        comparison ("峰值每瓦吞吐（对比 GB200/GB300）": a row about the subject)."""
        text = self.analysed[number].sentence.text
        named = self.mentions[number]
        if speakers_aside(text, [m.start for m in named]):
            return []
        return [m for m in named if not _compared_before(text, m.start)] or named

    def _who(self, sentence: str, at: int, number: int | None = None) -> str:
        """Who measured: the last party named before the measuring word, or after "by" (a party
        in a negated stretch, "第三方复测还没跟上", measured nothing)."""
        masked = _mask_independence(sentence)
        corrected = _gives_right_figure(sentence)  # a correction's sentence names who ran it
        parties = [
            p
            for p in self._parties(sentence, number)
            if self._stated(number, p[0])
            or (corrected and self.asserted(number, p[0]) == "retracted")
        ]
        before = sorted(p for p in parties if p[0] <= at)
        after = sorted(p for p in parties if at < p[0] <= at + 60)
        # a party in a possessive before a thing ("SemiAnalysis's agent benchmark", "the Chinese
        # lab's newest model") is not the one who measured
        doers = [p for p in before if not _possessed(sentence, p[0], at)] or [
            p for p in before if p[1] != "independent" or not BENCHMARK_OWNED.match(sentence, p[0])
        ]
        # a party inside an aside on the doer is not the doer ("A group at Illinois, which got
        # boards through OpenAI's access program, posted its own runs")
        doers = [p for p in doers if not _in_aside(masked, p[0], at)] or doers
        agent = doers[-1][1] if doers else None
        if before and SUBJECT_PRONOUN.search(masked, before[-1][0], at):
            # "Nimbus is one of the clouds OpenAI let in, and it published…": "it" is the subject
            agent = before[0][1]
        if before and PRONOUN_AFTER_BREAK.search(masked, max(0, before[-1][0] - 4), at):
            # "We build the chip; they benchmark it.": "they" is not the party before the break
            agent = None
        passive = (
            re.search(
                r"\bby\b|\bcame from\b|由|被|^(?:测试|复测|测评|评测)方(?:为|是)"
                r"|^[^\s(（]{1,6}\s*[(（]"  # "A0 实测（OpenAI）": the doer in brackets after the verb
                # "runs OpenAI did on B0 samples": the doer of a run named after it
                r"|^(?:runs?|tests?|measurements?|benchmarks?)\s+(?:that\s+|which\s+)?\S+(?:\s+\S+)?"
                r"\s+(?:did|ran|made|performed|conducted|carried out)\b",
                masked[at : at + 60],
            )
            or re.match(
                r"(?:数据|结果|数字|成绩)(?:来自|出自)", masked[at:]
            )  # "数据来自…机构的测试"
            or re.match(r"\S+\s+(?:\w+\s+)?(?:outside|independently)\b", masked[at : at + 40])
        )  # "benchmarked outside OpenAI", "re-tested independently"
        if after and passive:
            agent = after[0][1]
        elif (
            agent is None
            and after
            and (
                OWN_PLACE.search(masked, max(0, after[0][0] - 20), after[0][0])
                or OUR_PLACE.match(masked, after[0][0])
            )
        ):
            # "SemiAnalysis has finished running Jalapeño in its own lab", "measured on the two
            # loaner boards at our Zürich site"
            agent = after[0][1]
        if agent is None:
            said = ATTRIBUTION.search(masked)
            if said:  # wire copy: "… measured output speed … to 1,612, OpenAI said on its blog"
                agent = (
                    "owner"
                    if self._speaker(masked, number)
                    == "owner"  # "…, an engineer wrote on the company's blog"
                    else next((kind for at_, kind in parties if at_ >= said.start()), None)
                )
        if agent == "owner":
            new = (
                self.rules.new_run.search(masked)
                or self._beyond_claims(sentence)
                or (
                    RAN_VERB.search(masked, at, at + 24) and self._beyond_claims(sentence, ran=True)
                )
                # "公司称这是内部团队…的实测", after "在最新一期简报中更新了…": the story's new run
                or (number and self._new_in_story(number))
            )
            # the owner named as the doer of a run it already published: no one else's run
            return "owner" if new else (KNOWN_RUN if after and passive else "")
        return agent or ""

    def _new_in_story(self, number: int) -> bool:
        """Does the sentence before, in the same story, say the run is new ("由 1.23 万提升至
        1.41 万", "refreshed")?"""
        before = number - 1
        return (
            before > 0
            and self.sections[before] == self.sections[number]
            and bool(self.rules.new_run.search(self.analysed[before].sentence.text))
        )

    def _parties(self, sentence: str, number: int | None = None) -> list[tuple[int, str]]:
        """Where the sentence names a party, and whether it is the owner or independent. A bare
        "the team", "团队" (sentence `number` of the item) is the party named before it."""
        key = (sentence, number)
        if key not in self._parties_of:
            self._parties_of[key] = self._parties_in(sentence, number)
        return self._parties_of[key]

    def _parties_in(self, sentence: str, number: int | None) -> list[tuple[int, str]]:
        found = self._named_parties(sentence, number)
        if number is None:
            return found
        out = []
        for at, kind in found:
            if kind == "independent" and IN_HOUSE.search(sentence, max(0, at - 8), at + 2):
                kind = "owner"  # "测试由内部团队完成", "run by the in-house team": the owner's own
            elif (
                kind == "independent"
                and _bare(sentence, at)
                # (not "由中心自己的工程师": the centre's own people, whoever was named last)
                and not self._outsiders_own(sentence, at)
            ):
                kind = self._antecedent(number, at, found)
            elif kind == "owner" and self._firm_before(sentence, at, found):
                kind = "independent"  # "Corvane Cloud's blog says the company measured…"
            elif (
                kind == "independent"
                and ITS_OWN.search(sentence, max(0, at - 12), at)
                and any(k == "owner" and self._owner_speaks(sentence, a) for a, k in found)
                and not any(k == "independent" and a != at for a, k in found)
            ):
                kind = "owner"  # "In runs in its own lab, OpenAI said …": the owner's lab
            out.append((at, kind))
        return out

    def _owner_speaks(self, sentence: str, at: int) -> bool:
        """Is the owner named at `at` the subject of a verb of saying or running ("OpenAI said")?"""
        named = self.subject.owner.match(sentence, at) if self.subject.owner else None
        return bool(named) and bool(SUBJECT_VERB.match(sentence, named.end()))

    def _named_since(self, sentence: str, start: int, end: int, inclusive: bool = False) -> bool:
        """Does a firm's name (not the owner's, not a device's) stand after `start` (or at it,
        `inclusive`) and before `end`?"""
        return any(m.start() != start or inclusive for m in self._names_since(sentence, start, end))

    def _names_since(self, text: str, start: int, end: int | None = None) -> list[re.Match]:
        """The firms' names (not the owner's, not a device's) from `start` up to `end`."""
        return [
            m
            for m in FIRM_NAME.finditer(text, start, len(text) if end is None else end)
            if not any(
                p is not None and p.match(text, m.start())
                for p in (self.subject.owner, self.subject.names, self.subject.others)
            )
            and not BENCHMARK_AFTER.match(text, m.end())  # "InferenceX 8k/1k 单轮负载": a harness
        ]

    def _firm_before(self, sentence: str, at: int, found: list[tuple[int, str]]) -> bool:
        """Is the owner word at `at` "the company" after a firm the sentence names?"""
        return (
            self.firms is not None
            and bool(COMPANY_AFTER_FIRM.match(sentence, at))
            and any(
                kind == "independent" and self.firms.match(sentence, where)
                for where, kind in found
                if where < at
            )
        )

    def _outsiders_own(self, sentence: str, at: int) -> bool:
        """Is a bare party an outside party's own people ("由中心自己的工程师", "the centre's own
        engineers"), not the owner's, whoever was named last?"""
        return bool(OWN_PEOPLE.search(sentence, max(0, at - 24), at))

    def _antecedent(self, number: int, at: int, found: list[tuple[int, str]]) -> str:
        """The kind of the party a bare one refers to: the first named earlier in its sentence,
        else the first named in the nearest sentence before that names one (a sentence's
        subject comes first); independent when none was."""
        sentence = self.analysed[number][0].text
        before = [kind for where, kind in found if where < at and not _bare(sentence, where)]
        if before:
            return before[0]
        for earlier in range(number - 1, self.sections[number] - 1, -1):
            text = self.analysed[earlier][0].text
            named = [k for where, k in self._named_parties(text) if not _bare(text, where)]
            if named:
                return named[0]
        return "independent"

    def _named_parties(self, sentence: str, number: int | None = None) -> list[tuple[int, str]]:
        masked = _mask_independence(sentence)
        owner = self.subject.owner
        parties = []
        we = (
            "owner"
            if number is not None and number in self.owner_quotes
            else self._speaker(masked, number)
        )
        for kind, pattern in (
            ("owner", owner),
            ("independent", self.rules.independent),
            (we, self.rules.first_person),
        ):
            if pattern is None:
                continue
            for m in pattern.finditer(masked):
                if kind == "owner" and (
                    self._names_product(masked, m.start(), m.end())
                    or OWNERS_FIGURE.match(masked, m.end())
                    or OWNERS_WORK.match(masked, m.end())
                    or SUPPLIER.match(masked, m.end())
                    or LENT_BY.search(masked, max(0, m.start() - 60), m.start())
                    or OBJECT_MARK.search(masked, max(0, m.start() - 4), m.start())
                    or PARTNER_AFTER.match(masked, m.end())
                ):
                    continue  # "OpenAI's Jalapeño", "OpenAI's 19,600": not a party that ran anything
                owners = [at for at, k in parties if k == "owner"]  # found first, just above
                if kind == "independent" and _supplied(masked, m.start()):
                    continue  # "Rubin racks rented from a cloud provider": who supplied, not who ran
                if (
                    kind == "independent"
                    and m.group(0) == "自测"
                    and not parties
                    and not SELF_NAMED.search(masked, max(0, m.start() - 24), m.start())
                ):
                    continue  # "B0 首轮自测": a run by itself, and nobody named to be that self
                if kind == "independent" and FIRST_PERSON_OWN.search(masked[: m.start()]):
                    parties.append((m.start(), we))  # "in our own lab", "我们在实验室里"
                elif kind == "independent" and self._products_staff(masked, m):
                    parties.append((m.start(), "owner"))  # "a Jalapeño engineer": the maker's
                elif kind == "independent" and self._outsiders_own(masked, m.start()):
                    parties.append((m.start(), kind))  # "由中心自己的工程师": the centre's own
                elif (
                    kind == "independent"
                    and owners
                    and LOCATIVE.search(masked, max(0, m.start() - 6), m.start())
                    and any(o < m.start() for o in owners)
                ):  # "由 OpenAI 自己在实验室跑": where the owner ran it, not who
                    parties.append((m.start(), "owner"))
                elif (
                    kind == "independent"
                    and REFLEXIVE.search(m.group(0))
                    and not WE.match(m.group(0))  # "我们在自己采购的服务器上": the writer's own
                    and any(o < m.start() and not _in_aside(masked, o, m.start()) for o in owners)
                    and not NAME_BEFORE.search(masked, max(0, m.start() - 24), m.start())
                    and not self._named_since(masked, max(owners), m.start())
                ):  # ("SemiAnalysis 自己动手": the name right before it, not the owner further back;
                    # "…at OpenAI's lab, SemiAnalysis has put the two on its own benches and
                    # measured them itself": a firm named since the owner is who "itself" is;
                    # "SemiAnalysis, which only watched OpenAI's runs, this time ran it itself":
                    # an owner named in an aside is not who "itself" is)
                    parties.append((m.start(), "owner"))  # "由 OpenAI 自行完成": the owner itself
                elif (
                    kind == "independent"
                    and not parties
                    and BARE_SELF.fullmatch(m.group(0))
                    and not FIRM_NAME.search(masked, 0, m.start())
                    and not PRONOUN_LEAD.search(masked, 0, m.start())
                    and self._owner_named_last(number)
                ):  # "…数据由 OpenAI 自己跑。" then "虽然还是自己跑的": the one named last
                    parties.append((m.start(), "owner"))
                elif (
                    kind == "independent"
                    and owner is not None
                    and (
                        _owned(owner, masked, m.start(), owners)
                        or (
                            COMPANY_WORD.search(masked, max(0, m.start() - 24), m.start())
                            and self._owner_named_last(number)
                        )
                        or (
                            TEAM_WORD.fullmatch(m.group(0))
                            and _bare(masked, m.start())
                            and self._owner_named_last(number, team=True)
                        )
                        # "OpenAI … 追加了一段说明，称团队九月…重新跑了一轮": the team of the
                        # owner whose words they are
                        or (
                            TEAM_WORD.fullmatch(m.group(0))
                            and any(o < m.start() for o in owners)
                            and bool(SAYS_BEFORE.search(masked, max(0, m.start() - 4), m.start()))
                        )
                    )
                ):
                    parties.append((m.start(), "owner"))  # "OpenAI's own lab", "OpenAI的团队"
                else:
                    parties.append((m.start(), kind))
        parties += [(m.start(), "independent") for m in INDEPENDENCE.finditer(sentence)]
        parties += [
            (at, kind)
            for at, kind in self._named_runners(masked, parties)
            if not _supplied(masked, at)  # "a Vera Rubin rack rented from Stratus Cloud"
        ]
        return sorted(parties)

    def _owner_named_last(self, number: int | None, team: bool = False) -> bool:
        """Is the owner the firm named last before sentence `number`? Then "the company's
        engineers" there are the owner's ("OpenAI said … . On GPT-OSS, the company's engineers
        measured"); with `team`, the owner's team must have been named ("与 OpenAI 硬件团队的
        交流" then "团队原本没有 MLA 内核")."""
        if number is None or number == 0:
            return False
        before = self.text[: self.analysed[number].sentence.start]
        owners = [
            m.end()
            for m in self.subject.owner.finditer(before)
            if (not team or OWNERS_TEAM.match(before, m.end()))
            and not self._product_of_named_firm(before, m.start(), m.end())
        ]
        if not owners:
            return False
        firms = [m.end() for m in self.firms.finditer(before)] if self.firms is not None else []
        if firms and firms[-1] > owners[-1]:
            return False
        # "It was a projection from OpenAI's figures. This spring SemiAnalysis went and
        # checked. This time the firm ran…": a firm's name since the owner's is who "the firm" is
        return not any(
            m.group(0).split()[0] not in FIRM_NOT and m.group(0).split()[0] not in MONTHS
            for m in self._names_since(before, owners[-1])
        )

    def _products_staff(self, text: str, party: re.Match) -> bool:
        """Is the party the product's own people ("a Jalapeño engineer", "the Jalapeño software
        team", "Jalapeño 团队")? Its maker's staff, not an outside party."""
        names = self.subject.names
        if names is None:
            return False
        lead = names.match(party.group(0))  # "the Jalapeño team", found as a named team
        if lead and STAFF.fullmatch(party.group(0)[lead.end() :].strip()):
            return True
        if not STAFF.fullmatch(party.group(0)):
            return False
        before = text[max(0, party.start() - 40) : party.start()]
        found = list(names.finditer(before))
        return bool(found) and bool(STAFF_AFTER_NAME.fullmatch(before, found[-1].end()))

    def _product_of_named_firm(self, before: str, start: int, end: int) -> bool:
        """Is the owner's name at [start, end) only the owner of the product that a firm named
        earlier in its sentence acted on ("SemiAnalysis has published the first benchmark of
        OpenAI's Jalapeño. The firm ran…": the firm is SemiAnalysis)?"""
        if not self._names_product(before, start, end):
            return False
        opens = [r.sentence.start for r in self.analysed if r.sentence.start <= start]
        return self._named_since(before, max(opens, default=0), start, inclusive=True)

    def _quotes_of_owner(self) -> frozenset[int]:
        """Quoted sentences the next sentence gives to the owner ("“…我们在 B0 上跑了…。”" then
        "OpenAI 硬件团队一位工程师在公司技术博客中写道。")."""
        owner = self.subject.owner
        if owner is None:
            return frozenset()
        out = self._under_owners_line(owner)
        if not any(q in self.text for q in ("”", '"', "」")):
            return frozenset(out)
        out |= self._opened_by_owner(owner)
        for number in range(len(self.analysed) - 1):
            text = self.analysed[number].sentence.text.strip()
            said = self.analysed[number + 1].sentence.text
            quoted = text.startswith(("“", '"', "「")) or text.endswith(("”", '"', "」"))
            if (
                quoted
                and ATTRIBUTED_LINE.match(said)
                and (owner.search(said) or THE_COMPANY.search(said))
            ):
                out.add(number)
        return frozenset(out)

    def _opened_by_owner(self, owner: re.Pattern) -> set[int]:
        """The sentences of a quote its lead gives to the owner's people, up to where it closes
        ("Mara Lindqvist, who leads silicon bring-up at OpenAI: “First B0 parts came back … we had
        kernels running on every core.”")."""
        out: set[int] = set()
        inside = False
        for number, read in enumerate(self.analysed):
            text = read.sentence.text
            if inside:
                out.add(number)
                inside = not QUOTE_CLOSE.search(text)
                continue
            opened = QUOTE_OPEN.search(text)
            if opened is None:
                continue
            found = self._named_parties(text[: opened.start()])
            if found and found[0][1] == "owner":
                out.add(number)
                inside = not QUOTE_CLOSE.search(text, opened.end())
        return out

    def _under_owners_line(self, owner: re.Pattern) -> set[int]:
        """Sentences under a line that gives them to the owner's people, up to the next such
        line ("jho-openai (Maintainer, OpenAI) replied:" then "> We ran it last week …")."""
        out, owners = set(), False
        for number, read in enumerate(self.analysed):
            text = read.sentence.text
            if SPEAKER_LINE.search(text):
                owners = bool(owner.search(text))
            elif owners:
                out.add(number)
        return out | self._owners_turns(owner)

    def _owners_turns(self, owner: re.Pattern) -> set[int]:
        """In a transcript, the turns of a speaker once labelled as the owner's, under the full
        label and the short one ("RICHARD HO (OpenAI): …" and later "HO: …")."""
        out: set[int] = set()
        names: set[str] = set()
        # a guest introduced with the owner's affiliation: "【本期嘉宾：陈屿，OpenAI 芯片团队软件负责人】",
        # "Guest: Dana Li, who leads OpenAI's chip software"
        for read in self.analysed[:4]:
            for intro in GUEST_INTRO.finditer(read.sentence.text):
                role = intro.group("role")
                # (not "东岭为独立第三方评测机构，与 OpenAI 无股权或业务关系": the owner named as no tie)
                if owner.search(role) and not NOT_OWNERS_ROLE.search(role):
                    name = intro.group("name").strip().lower()
                    names |= {name, name.split()[-1]}
                    if len(name.split()) > 1:  # "KM:" for Kofi Mensah
                        names.add("".join(word[0] for word in name.split()))
        speaking = False
        for number in sorted(self.turns):
            text = self.analysed[number].sentence.text
            label = SPEAKER.match(text)
            if label:
                name = label.group(1).strip().lower()
                if owner.search(label.group(0)):
                    names |= {name, name.split()[-1]}
                speaking = name in names or name.split()[-1] in names
            if speaking:
                out.add(number)
        return out

    def _owner_in_lead(self) -> bool:
        """Is the owner the first party the item names (the one whose post "the post" is)?"""
        for number in range(min(3, len(self.analysed))):
            found = self._named_parties(self.analysed[number].sentence.text)
            if found:
                return found[0][1] == "owner"
        return False

    def _speaker(self, sentence: str, number: int | None = None) -> str:
        """Who "we" is in this sentence: the owner when a quote is put in the owner's mouth
        ('"We measured 1,512 …," the company wrote', '"…," OpenAI's inference lead said'), else
        who "we" is in the item."""
        owner = self.subject.owner
        if owner is None:
            return self._first_person
        said = ATTRIBUTION.search(sentence)
        if said and (
            THE_COMPANY.search(sentence, said.start())
            or owner.search(sentence, said.start())
            # '"We reran all three models …," the post said' after "OpenAI published …"
            or (THE_DOCUMENT.search(sentence, said.start()) and self._owner_in_lead())
        ):
            return "owner"
        # "OpenAI 工程师：我们在 B0 上跑了", "OpenAI … 称“我们测了…”": said in the owner's voice
        lead = SAID_BY.match(sentence)
        if lead and owner.search(lead.group(0)):
            return "owner"
        # "OpenAI 在 GitHub 上公开了…仓库。" "配套博文称，这是“我们跑过的一切”": the document of
        # the owner named last
        if DOC_SAYS.match(sentence) and self._owner_named_last(number):
            return "owner"
        return self._author_of(sentence) or self._first_person

    def _author_of(self, sentence: str) -> str:
        """Who wrote the post a sentence stands in: the nearest handle at or above it ("@hwang_oai
        · Nov 3", "> u/oai_infra_marisa (OpenAI):"), the owner's when the handle or its flair
        names the owner; "" when the item has no handles."""
        if self._authors is None:
            self._authors = {}
            author = ""
            for read in self.analysed:
                mark = AUTHOR.match(read.sentence.text)
                if mark:
                    # ("@OpenAIHardware" is OpenAI's: a capital run ends where a word begins)
                    name = CAPITALS_END.sub(" ", mark["name"].replace("_", " "))
                    said = f"{name} {mark['flair'] or ''}"
                    author = "owner" if self.subject.owner.search(said) else "independent"
                if author == "independent" and self._staff_says(read.sentence.text):
                    author = "owner"  # the post's writer says they work for the owner
                self._authors[read.sentence.text] = author
        return self._authors.get(sentence, "")

    def _staff_says(self, text: str) -> bool:
        """Does the writer say they are the owner's staff ("I'm on OpenAI's inference kernels
        team", "I run data-center ops for OpenAI's Abilene site", "我在 OpenAI 做编译器")?"""
        owner = self.subject.owner
        return owner is not None and any(staff_named(text, m) for m in owner.finditer(text))

    def _named_runners(self, text: str, found: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """A name alone as the one who ran it: "Kestrel Analytics has re-run the suite",
        "SemiAnalysis measured", and a firm the item introduced, named again ("Brightline
        Systems, which benchmarks…" then "Brightline ran the workload"). Not the owner, nor a
        device or a model, nor a name a party word already covers."""
        spots = [
            (m.start("name"), m.group("name"))
            for pattern in (NAMED_RUNNER, SAID_RUNNER, BY_RUNNER, OWN_RUNNER, HEADLINE_SOURCE)
            for m in pattern.finditer(text)
        ]
        if self.firms is not None:
            spots += [(m.start(), m.group(0)) for m in self.firms.finditer(text)]
        out = []
        for at, name in spots:
            if any(at <= party < at + len(name) for party, _ in found) or not self._a_firm(name):
                continue
            out.append((at, "independent"))
        return out

    def _a_firm(self, name: str) -> bool:
        """Could this name be a firm's: not a model ("Kimi K2.6"), the owner or a device?"""
        if any(ch.isdigit() for ch in name):
            return False
        return not any(
            pattern is not None and pattern.search(name)
            for pattern in (
                self.subject.owner,
                self.subject.names,
                self.subject.direct,
                self.subject.others,
            )
        )

    def _item_firms(self) -> re.Pattern | None:
        """Names the item introduces as a firm that tests ("Brightline Systems, which benchmarks
        inference hardware", "Fieldnote's DeepSeek R1 run", "Halden Labs has re-run"): the
        whole name and its first word."""
        words = set()
        for name in firm_names(self.text):
            if self._a_firm(name):
                words.add(name)
                first = name.split()[0]
                if len(first) >= 4:
                    words.add(first)
                # a Chinese name called by its stem later: "观澜实验室" then "观澜在…上跑了"
                stem = ZH_KIND_SUFFIX.sub("", name)
                if not name.isascii() and stem != name and len(stem) >= 2:
                    words.add(stem)
        return firm_pattern(tuple(sorted(words))) if words else None

    def _beyond_claims(self, sentence: str, ran: bool = False) -> bool:
        """A run under conditions none of the subject's own claims holds (B0 silicon, MTP on;
        a comparator's claims do not count) is a new run even when its owner does not say so.
        `ran`: the sentence says the subject was run ("我们在 B0 上跑了"), so a claim of a stated
        figure (B0's compute rating) holds no run of those conditions."""
        spec = self.subject.measurement
        if spec is None or not spec.new_conditions:
            return False
        stated = self.conditions_in(sentence)
        stated_only = {m.id for m in self.subject.metrics if m.disclosure} if ran else set()
        held = [
            ref.conditions
            for (subject, metric, _), refs in self.index.by_metric.items()
            if subject == self.subject.id and metric not in stated_only
            for ref in refs
        ]
        return any(
            key in spec.new_conditions
            and any(key in c for c in held)
            and not any(c.get(key) == value for c in held)
            for key, value in stated.items()
        )

    def _names_product(self, text: str, start: int, end: int) -> bool:
        """Does the owner's name at [start, end) name the product ("OpenAI's Jalapeño", "OpenAI
        芯片")?"""
        direct = self.subject.direct
        if direct is not None and direct.match(text, start):
            return True
        rest = POSSESSIVE.sub("", text[end : end + 12], count=1)
        names = self.subject.names
        return bool(names and names.match(rest))

    @property
    def _tracked(self) -> set[str]:
        """The models the subject's claims track."""
        return {m for (subject, _, m) in self.index.by_metric if subject == self.subject.id and m}

    def level(self) -> str:
        who, full, _ = self.measurement
        # the run's own figures cover every tracked model: "DeepSeek R1: 17.9k. Kimi K2.5: 16.4k."
        full = full or bool(self._tracked and self._tracked <= self.ran_models)
        spec = self.subject.measurement
        if who == "independent" and spec:
            return spec.full if full else spec.partial
        if who == "owner" and spec:
            return spec.owner_level
        return ""


@lru_cache(maxsize=1024)
def firm_names(text: str) -> tuple[str, ...]:
    """Capitalised names an item introduces as a firm, or gives a run to (cached: each subject's
    reading of an item asks)."""
    names = {m.group("name") for m in FIRM_INTRO.finditer(text)}
    names |= {m.group("name") for m in FIRM_WORK.finditer(text)}
    names |= {m.group("name") for m in FIRM_APPOSITION.finditer(text)}
    names |= {m.group("name") for m in NAMED_RUNNER.finditer(text)}
    names |= {m.group("name") for m in SAID_RUNNER.finditer(text)}
    names |= {m.group("name") for m in BY_RUNNER.finditer(text)}
    names |= {m.group("name") for m in ZH_FIRM_REPORT.finditer(text)}
    names |= {m.group("name") for m in ZH_FIRM_KIND.finditer(text)}
    names |= {m.group("name") for m in FIRM_KIND.finditer(text)}
    return tuple(
        sorted(
            n
            for n in names
            if n.split()[0] not in FIRM_NOT and n not in FIRM_NOT and n.split()[0] not in MONTHS
        )
    )


@lru_cache(maxsize=1024)
def firm_pattern(words: tuple[str, ...]) -> re.Pattern:
    """The names as whole words (a Chinese name has no spaces around it to stand between)."""
    ordered = sorted(words, key=len, reverse=True)
    latin = "|".join(re.escape(w) for w in ordered if w.isascii())
    chinese = "|".join(re.escape(w) for w in ordered if not w.isascii())
    parts = ([rf"(?<![\w-])(?:{latin})(?![\w-])"] if latin else []) + ([chinese] if chinese else [])
    return re.compile("|".join(parts))


ORG_AFTER = re.compile(
    r"\w+\s+(?-i:Consortium|Lab|Labs|Group|Institute|Center|Centre|Alliance|Partners|Association"
    r"|Council|Collective|Initiative|Inc|LLC|Ltd|GmbH)\b"
)


def _in_name(text: str, at: int) -> bool:
    """Is the capitalised word at `at` part of a name ("Tallis Benchmarking", "Northvale
    Testing"), not a verb? Not in a headline whose words are all capitalised."""
    if not text[at : at + 1].isupper() or not NAME_WORD_BEFORE.search(text, 0, at):
        return False
    if ORG_AFTER.match(text, at):
        return True  # "Cascade Benchmarking Consortium", whatever else the line capitalises
    words = WORD.findall(text)
    return sum(w[0].isupper() for w in words) * 2 <= len(words)


def _gives_right_figure(text: str) -> bool:
    """Does a correction's sentence give the right figure ("正确数字为 0.72 毫秒", "measured 1.21
    seconds, not 1.12 seconds as originally reported"), not only withdraw ("实为预估值")?"""
    return any(FIGURE_NEXT.match(text, m.end()) for m in CORRECT_VALUE.finditer(text)) or bool(
        CORRECTED_AFTER.search(text)
    )


def _in_aside(text: str, at: int, end: int) -> bool:
    """Is `at` inside a "which …" or "who …" aside that closes before `end`?"""
    return any(a < at < b <= end for a, b in (m.span() for m in ASIDE.finditer(text, 0, end)))


def _possessed(text: str, party: int, verb: int) -> bool:
    """Does the party at `party` own a thing other than the run at `verb` ("SemiAnalysis's agent
    benchmark", not "OpenAI's runs")?"""
    found = POSSESSED.match(text, party)
    return bool(found) and found.end() < verb


def _bare(text: str, at: int) -> bool:
    """Is the party word at `at` a bare "the team", "engineers", "团队", naming nobody by itself?"""
    word = BARE_PARTY.match(text, at)
    return (
        bool(word)
        and bool(BARE_BEFORE.search(TEAM_FUNCTION.sub("", text[max(0, at - 16) : at])))
        and not NAMED_AFTER.match(text, word.end())  # "Researchers at ETH Zurich" name someone
    )


def _owned(owner: re.Pattern, text: str, at: int, owners: list[int]) -> bool:
    """Is the party word at `at` the owner's own ("OpenAI's hardware team", "OpenAI内部团队", or,
    once the owner has been named as a party before it, "公司已在自家实验室", "in its own lab")?
    `owners`: where the sentence names the owner as a party (not "OpenAI's Jalapeño"). The
    owner's customers and tenants are not the owner ("拿到 OpenAI 试用权的客户")."""
    if CUSTOMER.match(text, at):
        return False
    if OWN_WORD.search(text[max(0, at - 24) : at]) and any(o < at for o in owners):
        return True
    before = text[max(0, at - 28) : at]
    found = list(owner.finditer(before))
    if not found:
        return False
    match = found[-1]
    named_at = max(0, at - 28) + match.start()
    if LENT_BY.search(text, max(0, named_at - 60), named_at):
        return False  # "working on boards from OpenAI's academic program": the owner lent them
    between = before[match.end() :]
    if SUPPLIER.match(between) or PARTNER_AFTER.match(between):
        return False  # "在 OpenAI 提供的机柜上独立测试": the owner lent it, not its own party
    if PHRASE_BREAK.search(between):
        return False  # "OpenAI's Jalapeño in an independent head-to-head": another phrase
    if HARDWARE_OF.search(between):
        return False  # "租用英伟达与 OpenAI 硬件的云厂商": a party of the owner's hardware, not its own
    return bool(
        re.fullmatch(
            r"(?:'s|’s|的)?\s*(?:own\s+|in-house\s+|internal\s+|内部)?[\w\s-]{0,16}?", between
        )
    )


# a line that says what a run ran: "Models: GPT-OSS 120B, DeepSeek R1, Kimi K2.5", "测试模型："
SETUP_LINE = re.compile(
    r"\W*(?:\d+/\d+\s+)?(?:models?(?: run| tested)?|测试模型|模型|测试条件|测试设置|测试配置"
    r"|(?:test\s+)?setup|test conditions)\s*[:：]",
    re.I,
)
HEADING = re.compile(r"\s*(?:#{1,4}\s|【|[一二三四五六七八九十]、)")
METHOD_HEAD = re.compile(
    r"\b(?:method(?:ology)?|setup|set-up|test (?:setup|conditions|scope)|scope|what we (?:tested|ran)"
    r"|how we (?:tested|measured|ran)|what (?:was|got|they) (?:tested|measured|ran|run))\b"
    r"|测试方法|测试条件|测试范围|测试内容|测试对象|方法|测了?(?:些)?什么|测了哪些|跑了什么|怎么测",
    re.I,
)
PARTY_RANK = ["", "someone", "owner", "independent"]  # who measured, when sentences differ


# after a measuring word, what it was measured against alone: the published comparison retold
ONLY_AGAINST = re.compile(r"\s+(?:only|just|solely)\s+(?:against|versus|vs\.?)\s", re.I)
# a maker testing what it makes: "这组数据由厂商自测", "vendor-run numbers"
MAKERS_OWN = re.compile(
    r"由(?:厂商|厂家|原厂|官方|芯片公司|该公司|公司)(?:自己|自行)?自测"
    r"|\b(?:vendor|maker|manufacturer|company)[- ](?:run|self-reported|own)\b",
    re.I,
)
# a field whose value names who did it: "Measured by:", "测试方:"
DOER_LABEL = re.compile(r"\bby\b|方|机构|单位|者|人", re.I)
FIELD_COLON = re.compile(r"[:：]")
# the tester named by a role word: "测试方为…", "复测方是…"
TESTER_IS = re.compile(r"(?:(?:测试|复测|测评|评测)方(?:为|是)|(?:动手|操刀|上手|出手)的是)\s*")
RERUN = re.compile(
    r"re-?test\w*|re-?ran|re-?run\w*|re-?measur\w*|replicat\w*|reproduc\w*|复测|重测|重跑|复现",
    re.I,
)


# the owner's figure quoted, not the owner running anything: "OpenAI's 1.03-second", "OpenAI 的 8.54 万"
# the owner's work, not the owner at work: "repeated OpenAI's equal-interactivity comparison"
# the owner's hardware, as what a party rents or buys: "租用英伟达与 OpenAI 硬件的云厂商"
HARDWARE_WORDS = "(?:硬件|芯片|机柜|板卡|设备|服务器|算力)"
# a quote opened after its speaker's lead, and where one closes
QUOTE_OPEN = re.compile(r"[:：,，]\s*[“\"「]")
QUOTE_CLOSE = re.compile(r"[”\"」]")
OWNERS_WORK = re.compile(
    # the owner's hardware as what a party rents or buys: "租用英伟达与 OpenAI 硬件的云厂商",
    # "a cloud operator that leases both Nvidia and OpenAI hardware"
    rf"\s*{HARDWARE_WORDS}的|\s+(?:hardware|gear)\b(?!\s+(?:team|group|engineers?|staff|lab|division|unit)\b)"
    r"|(?:'s|’s)\s+(?:[\w-]+\s+){0,2}?(?:comparison|figures?|numbers|results|claims?|data"
    r"|methodology|headline|ratios?|chart|table|blog|post|paper|workload|setup|set-up|settings?"
    r"|configuration|configs?|recipe|shape)\b|(?:'s|’s)(?=\s*(?:[.,;:)]|$))"
    # the owner's hardware in a party's hands: "two of OpenAI's B0-stepping samples", "leased two
    # of OpenAI's evaluation racks"
    r"|(?:'s|’s)\s+(?:[\w-]+\s+){0,2}?(?:samples?|parts|racks?|sleds?|boards?|silicon|nodes?|pods?"
    r"|packages)\b(?!\s+(?:team|group|engineers?|staff|lab|division|unit)\b)"
    r"|\s*的\s*\S{0,6}?(?:口径|数据|数字|成绩|结果|方法|说法|图表|博客|论文|标准|负载|配置|设置|形状|参数)"
    # "按 OpenAI 描述的方法": what the owner described, not a run of its own
    r"|\s*(?:此前|当初|去年|[\d一二三四五六七八九十]+\s*月)?\s*(?:描述|提出|定义|给出|公布|宣称|声称)的"
    # (not "公司给出的首批 B0 实测显示": the owner's own run, given)
    r"(?![^，,。；;]{0,8}(?:实测|测得|测量|跑分结果))"
    # what the owner lent or opened to others: "在 OpenAI 开放的新版软件栈上", "用 OpenAI 借出的机柜"
    r"|\s*(?:开放|提供|借出|出借|借给\S{0,8}|发放|租出)的"
    # what the owner never gave: "一组 OpenAI 没给过的数据"
    r"|\s*(?:没|未|没有|从未|从没)(?:给|给出|公布|发布|提供|披露)过?的",
    re.I,
)


# (not a day: "OpenAI 5月29日在博客公布"; "OpenAI 8 月公布的" is the owner's August figure)
OWNERS_FIGURE = re.compile(
    r"\s*(?:'s|’s|的)?\s*(?:own\s+|official\s+|published\s+)?[\d$¥](?!\d?\s*月\s*\d{1,2}\s*(?:日|号))"
    # "比 OpenAI 公布的 1,459 低了 5%", "OpenAI 8 月发布的数字 19,600": the owner's figure
    r"|\s*(?:\d{1,2}\s*月\s*)?(?:官方)?(?:公布|发布|给出|披露|公开)的\s*(?:(?:数字|数据|成绩|结果)\s*)?[\d约]"
)


# a party after a preposition ("…through OpenAI's research access programme"): no doer
PREPOSITION_BEFORE = re.compile(
    r"\b(?:through|via|from|under|with|in|of|by|on|at|to|for)\s+(?:the\s+)?$", re.I
)
# the owner as the subject of saying or running: "OpenAI said", "OpenAI ran"
SUBJECT_VERB = re.compile(
    r"\s+(?:said|says|reported|reports|wrote|writes|announced|measured|ran|tested)\b", re.I
)
ITS_OWN = re.compile(r"\b(?:its|their) own\s+$", re.I)  # "in its own lab"
UNTIL = re.compile(r"\b(?:until|till)\b|直到|直至", re.I)  # a state that lasted until something
# the subject left out of a run: "未包括 Jalapeño", "Jalapeño was not part of the test"
LEFT_OUT_BEFORE = re.compile(
    r"(?:未|没有|并未|不)(?:包括|包含|涉及|覆盖|复测|重测|测试?)了?\s*$"
    r"|\b(?:did not|didn't|does not|has not|hasn't|never)\s+(?:include|cover|re-?run|re-?test"
    r"|re-?measure|run|test|measure|benchmark|submit|enter)\s+(?:anything\s+on\s+|a thing on\s+)?$"
    # "they don't have a Jalapeño", "we do not have access to Jalapeño hardware", "没有拿到"
    r"|\b(?:don't|do not|doesn't|does not|didn't|did not|never)\s+(?:have|had|get|got)\s+"
    r"(?:(?:any\s+)?access\s+to\s+|a\s+|an\s+|any\s+)?$|(?:没有|没|未)(?:拿到|接触到?|摸到)(?:过)?\s*$"
    # "The authors had no access to Jalapeño hardware"
    r"|\b(?:had|have|has|got|get)\s+no\s+(?:\w+\s+)?access\s+to\s+(?:the\s+|any\s+)?$"
    r"|(?:手上|手里|手头|手中)(?:根本|并|也)?(?:没有|没)\s*$",
    re.I,
)


# the owner's own publication: "OpenAI's updated results page", "OpenAI 11 月中旬更新的测试页面"
OWNERS_PAGE = re.compile(
    r"(?:'s|’s)\s+(?:[\w-]+\s+){0,2}?(?:results?|figures|numbers|data|blog|post|page|table|paper)\b"
    r"|[^，,。；;]{0,14}?的\s*(?:测试|跑分|结果|官方)?(?:页面|博客|数据|结果|文章|表格|论文)",
    re.I,
)
# the subject's side of a comparison said to be someone's: "figures are OpenAI's", "的数据仍是 OpenAI 的"
SIDE_IS = re.compile(
    r"(?:'s|’s)?\s*(?:[\w-]+\s+)?(?:figures?|numbers|results|side|data|runs?)\s+"
    # ("the Jalapeño figures in its report were OpenAI's August numbers")
    r"(?:(?:in|of) (?:its|their|the) (?:[\w-]+\s+)?(?:report|paper|post|table|write-?up|chart)s?\s+)?"
    r"(?:are|were|is|was|came from|come from|are from|were from)\s+(?:still\s+|just\s+|only\s+)?"
    r"|\s*的?\s*(?:[\d.,]+\s*万?\s*)?(?:数据|数字|结果|成绩)\s*(?:仍|依然|还|仍然)?(?:是|为|来自|采用|沿用)\s*",
    re.I,
)
# the run covered one model alone, whatever else is called complete ("完整复现…（仅此一款）")
ONE_MODEL = re.compile(
    r"\b(?:only|just) (?:one|a single|1|that one|this one|the one) model\b|\b(?:one|a single) model only\b|仅此一款"
    # (not what most other results did: "外部数字又大多只测了一个模型")
    r"|(?<!大多)(?<!大都)(?<!多半)(?<!往往)(?:仅|只)(?:测|跑|复测)了?\s*(?:一|1)\s*(?:个|款)(?:模型)?"
    r"|(?<!大多)(?<!大都)(?<!多半)(?<!往往)(?:仅|只)(?:测|跑|复测)了?\s*[^，,。；;]{1,16}?(?:一|1)\s*(?:个|款)模型",
    re.I,
)
# a topic left to another piece: "第三方测试另文梳理", "re-tests are covered in a separate post"
ELSEWHERE = re.compile(
    r"\w{0,4}\s*(?:(?:另文|另篇|另稿|单独成文|另行)(?:梳理|介绍|讨论|再谈|再说|详述|细说|分析)?"
    r"|(?:are|is|get|gets|will be)\s+(?:covered|discussed|dealt with|treated)\s+(?:in\s+)?(?:a\s+)?"
    r"(?:separate|separately|another|later|different)\b|(?:get|gets)\s+(?:a|an)\s+(?:post|piece|note|story)\s+of\s+(?:their|its)\s+own\b)",
    re.I,
)
# a check of the hardware, not a benchmark run: "in acceptance testing", "验收测试"
NOT_A_BENCHMARK = re.compile(
    r"(?:\b(?:acceptance|burn-?in|qualification|reliability|compliance|factory|incoming|smoke"
    r"|regression|stress)|验收|老化|可靠性|出厂)\s*$"
    # a yield reaches a level, nothing is run: "B0 目前的良率已达到 78%", "yields reached 70%"
    r"|(?:良率|良品率|\byields?\b)[^，,。；;]{0,8}$"
    # "良率持续爬升，最新批次已达到 81%": the batches' yield, said across a comma
    r"|(?:良率|良品率|\byields?\b)[^，,。；;]{0,8}[，,]\s*(?:最新|最近|新)?(?:批次|一批|批|lots?|batches?)[^，,。；;]{0,6}$"
    # a basis, not a run: "X3 的功耗按整卡实测而非额定功耗计算"
    r"|(?:按|以|按照)(?:(?!做了|进行了|完成了)[^，,。；;\s)）]){0,6}$"
    # production, not a run: "B0 wafers are running in HVM", "lines running at full rate"
    r"|\b(?:wafers?|lots?|lines?|fabs?|foundr(?:y|ies)|packages?|substrates?)\s+(?:are\s+|is\s+|were\s+|was\s+)?(?:now\s+|still\s+)?$"
    # a thing someone else ran, as an object: "We reviewed what was run"
    r"|\b(?:what|whatever)\s+(?:was|were|had been|has been|got)\s+$",
    re.I,
)
# a run named as what a list, a plan or a tracker is of: "第三方复测进度表", "re-test tracker"
RUN_AS_NOUN = re.compile(
    r"\s*(?:的)?(?:进度表|进度|排期|时间表|清单|名单|进展表|日程)"
    r"|\s+(?:tracker|schedule|calendar|timeline|queue|checklist|scorecard|status board)\b",
    re.I,
)
# a run named as a topic: "对于外界关心的独立第三方复测…只字未提", "As for an outside re-test, …"
TOPIC_BEFORE = re.compile(
    r"(?:对于|关于|至于|说到|谈到|提到)[^，,。；;：:]{0,16}$|\b(?:as for|as to|regarding|on the question of)\s+(?:[\w-]+\s+){0,3}$",
    re.I,
)
# a heading that names a run and nothing else: "二、独立第三方复测", "3. An independent re-test"
TOPIC_HEADING = re.compile(
    r"\W*(?:[一二三四五六七八九十]{1,2}[、.]|\d{1,2}[.、)]|#{1,4})?\s*(?:the\s+|an?\s+)?"
    r"(?:独立|第三方|外部|independent|outside|third[- ]party|\s)*"
    # (the device's name may stand before the noun: "An independent Jalapeño re-test.")
    r"(?:(?<=\s)[\w-]+\s+)?"
    r"(?:复测|重测|实测|re-?tests?|replications?|(?<=\s)(?:re-?)?runs?|measurements?|benchmarks?)\W*"
    # the name glossed in brackets: "1. Independent re-test (独立复测 / 第三方复现)."
    r"(?:[(（][^()（）]{1,40}[)）]\W*)?",
    re.I,
)
DETERMINER_BEFORE = re.compile(r"\b(?:a|an|the|one|its|their|this|that)\s+$", re.I)
RUN_NOUN = re.compile(r"(?:re-?)?(?:runs?|tests?|benchmarks?|measurements?)\b", re.I)
THROUGH_A_SHEET = re.compile(
    r"[^.;]{0,60}?\b(?:through|into|in)\s+(?:our|a|the|my|their|an)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:spreadsheets?|sheets?|calculators?|cost models?|tco models?)\b",
    re.I,
)
CHECK_AFTER = re.compile(
    r"\s*(?:了|完)?\s*(?:高温)?(?:老化|可靠性|验收|烧机|出厂)"
    # set-up only: "他们对 Jalapeño 的复测“已完成环境搭建”"
    r"|\s*[“\"]?\s*(?:已经|已)?(?:完成|做好|开始)?(?:了)?\s*(?:测试)?(?:环境|机柜)(?:的)?(?:搭建|准备|部署|调试|安装)"
    r"|\s+(?:the\s+|its\s+)?(?:burn-?in|reliability|qualification|acceptance)\s+(?:tests?|runs?|checks?|flow|suite)\b"
    # bring-up: "packaged parts are alive and running code"
    r"|\s+(?:test\s+)?(?:code|software|firmware|diagnostics|linux|hello world)\b",
    re.I,
)
# bring-up before a run: "booting and running models", "booting on the first day and running a
# model on the third", "powered on, running"
BRING_UP = re.compile(
    r"\b(?:booting|booted|boots|powered (?:on|up)|bring-?up|brought up)\b"
    r"(?:[^.;]{0,40}\band\s+|\s*,?\s*)$",
    re.I,
)
NOT_THIRD_PARTY = re.compile(
    r"(?:不是|并非|并不是|而非)(?:由)?(?:第三方|独立)|\bnot (?:by )?(?:an? )?(?:third[- ]party|independent|outside)\b"
    r"|(?:还是|仍是|仍然是)(?:他们|官方|公司|厂商)自己(?:测|跑)的",
    re.I,
)
VENDORS_OWN = re.compile(
    r"各自(?:的)?(?:厂商|公司|厂家)(?:自己|自行)|(?:都|均)是各(?:自|家)(?:厂商|公司|厂家)?(?:自己|自行)"
    r"|\b(?:each|both|the) (?:vendors?|makers?|companies) (?:submitted|ran) (?:their|its) own\b"
    r"|\b(?:submitted|run) (?:and (?:run|submitted) )?by (?:the|each) (?:vendors?|makers?)\b"
    r"|\bvendor[- ](?:submitted|run)\b|\bself-submitted\b",
    re.I,
)
# a measuring word that names a kind of party: "测试机构", "benchmarking house"
MEASURED_NOUN = re.compile(
    r"的实测(?:功耗|功率|数据|数字)(?=[^，,。；;]{0,6}(?:没有|未|并未|尚未|还没)(?:公开|披露|公布))"
)
PARTY_NOUN = re.compile(
    r"\s*(?:机构|中心|团队|公司|厂商|部门|平台|人员|工程师|设备|仪器)"
    r"|(?<=ing)\s+(?:firms?|houses?|shops?|labs?|outfits?|companies|company|groups?|teams?|arms?|units?"
    r"|divisions?|subsidiar(?:y|ies)|specialists?"
    r"|consultanc(?:y|ies)|practices?|agenc(?:y|ies)|start-?ups?|services?|business(?:es)?"
    # or people: "greeted with relief by benchmarking people", "the testing community"
    r"|people|folks|community|crowd|world|circles?|types|press|experts?|nerds|enthusiasts|scene"
    # or a thing: "power measuring equipment"
    r"|equipment|gear|instruments?|rigs?|setups?|devices?|tools?|kit)\b",
    re.I,
)
NONE_OF = re.compile(r"(?:没有|没|并无|尚无)\s*$")
ITS_PARTS = re.compile(
    r"\s*(?:的)?\s*(?:这颗|这块|这款|该|此)?\s*(?:[AB]0\s*)?(?:样片|板卡|板子|硬件|芯片|机器)"
)


# a review of the owner's records, not a run: "we re-ran OpenAI's logs", "基于 OpenAI 公布的日志重算"
LOG_REVIEW = re.compile(
    r"\b(?:re-?ran|re-?run|re-?comput\w+|recalculat\w+|re-?did|redo(?:ing)?|re-?analy[sz]\w+"
    r"|arithmetic on|audit\w*|given|handed|received|shown|got|had access to)\s+"
    r"(?:[\w'’-]+\s+){0,3}(?:trace\s+|run\s+)?logs\b"
    r"|\bfrom\s+(?:[\w'’-]+\s+){0,2}(?:own\s+)?(?:logs|log files|power-meter traces)\b"
    r"|\b(?:re-?comput\w+|recalculat\w+)\s+(?:[\w-]+\s+){0,3}?from\s+(?:th\w+\s+)?(?:[\w-]+\s+)?"
    r"(?:files|logs|traces|records|timestamps)\b"
    r"|\b(?:spent|weeks|days|months)\s+(?:[\w-]+\s+){0,3}?with\s+(?:the\s+)?(?:raw\s+)?(?:[\w'’-]+\s+){0,2}logs\b"
    r"|(?:基于|根据|用)[^。，,]{0,16}日志[^。，,]{0,6}(?:重新)?(?:计算|推算|复算|重算)|(?:复算|重算)[^。，,]{0,8}日志|日志(?:的)?(?:复算|重算|推算|重新计算)"
    # "拿到的是 OpenAI 提供的运行日志", "这是审计，不是复测"
    r"|(?:拿到|收到|获得|提供)[^。，,]{0,12}(?:运行|测试)?日志|(?:是|属于)审计[，,]?\s*(?:而)?(?:不是|并非|非)(?:复测|测试|实测)",
    re.I,
)
LEFT_OUT_AFTER = re.compile(
    r"\s*(?:itself\s+)?(?:was|were|is)\s+not\s+(?:part of|included in|among|in)\s+(?:the|this|that)\s+"
    r"(?:test|run|re-?test|comparison|study|measurement)s?\b|\s*(?:不在|未在)(?:本次|这次)?(?:测试|复测)"
    # left out of a batch of results: "— Jalapeño not among them", "is absent from the list"
    r"|\s*(?:(?:is|was|were)\s+)?(?:not|nowhere)\s+(?:yet\s+)?(?:among\s+them|in\s+(?:it|them)\b"
    r"|(?:among|in|on|part of|included in)\s+(?:the|this|that)\s+(?:first\s+|initial\s+|new\s+)?"
    r"(?:batch|list|lineup|line-up|board|leaderboard|results|round|set|release))"
    r"|\s*(?:(?:is|was|were)\s+)?(?:absent|missing)\s+from\b"
    r"|\s*(?:不在|未在|没在)(?:其中|名单|榜单|首批|之列|列)|\s*(?:未|没有|并未)(?:被)?(?:列入|纳入|收录|入选|上榜)"
    r"|\s*(?:缺席|未参测|没有参测|未参与测试)"
    r"|\s*(?:芯片)?\s*(?:无关|没有关系|毫无关系)"
    # a board's line for it says it sent nothing: "Jalapeño: no submission received", "未提交"
    r"|\s*[:：]\s*(?:no (?:submission|entry|results?|listing|data)|not (?:submitted|listed)|n/a\b)"
    r"|\s*[:：]?\s*(?:未|没有|尚未)(?:提交|参评|上榜)",
    re.I,
)


LOCATIVE = re.compile(r"(?:在|于)(?:其|自己的?|自家的?|自有的?)?\s*$")
# the writer as the owner's staff, said right before the owner's name
STAFF_BEFORE = re.compile(
    r"(?:\b(?:i'm|i am|i work|i've worked|i have worked)\s+(?:\w+\s+){0,2}?(?:on|at|in|with|for)"
    r"|\bi\s+(?:run|lead|manage|head)\s+(?:[\w-]+\s+){1,3}(?:for|at)"
    # the one interviewed, introduced: "She joined OpenAI's hardware group in 2024"
    r"|\b(?:she|he)\s+(?:\w+\s+)?(?:joined|works (?:at|for)|has worked (?:at|for)))\s*(?:the\s+)?$",
    re.I,
)
# "我在 OpenAI 做编译器": the place before the owner, the work after it
STAFF_AT = re.compile(r"我(?:现在|目前)?(?:就)?在\s*$")
STAFF_WORK = re.compile(r"\s*(?:做|工作|负责|上班|任职)")


def staff_named(text: str, owner: re.Match) -> bool:
    """Is the owner's name at `owner` where the writer says they work ("I'm on OpenAI's …",
    "我在 OpenAI 做…")?"""
    return bool(
        STAFF_BEFORE.search(text, max(0, owner.start() - 40), owner.start())
        or (
            STAFF_AT.search(text, max(0, owner.start() - 8), owner.start())
            and STAFF_WORK.match(text, owner.end())
        )
    )


REFLEXIVE = re.compile(r"自测|自行|自己|\bitself\b|\bthemselves\b", re.I)
WE = re.compile(r"我们|我(?!国)|\b(?:we|our|i)\b", re.I)
# an executive's title with no firm of its own: "VP of hardware engineering Simon Achterberg wrote"
EXEC_BEFORE = re.compile(
    r"\b(?:vp|svp|evp|vice[- ]president|chief\s+\w+\s+officer|cto|ceo|cfo|head of (?:hardware|silicon|"
    r"infrastructure|inference|compute))\b(?:\s+(?:of|for)\s+[\w ]{1,30}?)?\s+(?:(?-i:[A-Z])[\w'-]+\s+){1,3}"
    r"(?:wrote|said|says|told|writes|added|announced)\b",
    re.I,
)
# a reflexive standing alone (not 自测, 自行: "据云岭自测" names its doer)
BARE_SELF = re.compile(r"自己|itself|themselves", re.I)


# a transcript's turn: a short name, a role or 问/答 before a colon at the start of a line
SPEAKER = re.compile(
    r"\s*([A-Z][A-Za-z.'’ -]{1,24}|[\u4e00-\u9fff]{1,4})(?:\s*\([^)]{0,80}\))?\s*:\s*"
)


# a post's author line: "@hwang_oai · Nov 3", "> u/oai_infra_marisa (OpenAI): …", "↳ @irisbench:"
AUTHOR = re.compile(
    r"\s*(?:[>↳]\s*)*(?:\*\*)?(?:@|u/)(?P<name>[A-Za-z0-9_.-]{2,30})(?:\*\*)?"
    r"(?:\s*\((?P<flair>[^()]{1,40})\))?(?:\*\*)?\s*(?:[:·|]|$)"
)
CAPITALS_END = re.compile(r"(?<=[A-Z])(?=[A-Z][a-z])")
PASSIVE_AGENT = re.compile(r"由|被|\bby\b", re.I)
THIRD_PERSON = re.compile(r"(?:they|he|she|他们|她们|他|她)(?![\w'’])", re.I)
# the subject of a speaker's clause before its verb: "上个月我们已经在技术博客上" (not "we build the
# chip; they", "我们想先", "we'd like to")
PRONOUN_LEAD = re.compile(r"我们|咱们|他们|她们|它们|\b(?:we|they|he|she|it)\b", re.I)
WANT_LEAD = re.compile(
    r"想|打算|计划|准备|希望|要|会|将|\b(?:want|wants|would|'d|hope|plan|will|going to|intend)\b",
    re.I,
)


SUBJECT_WORDS = re.compile(
    r"我们|咱们|他们|她们|它们|\b(?:we|they|he|she|it|our|their|his|her|its)\b", re.I
)
# a production word before "we're running": "On the B0 lots we're running now" runs no benchmark
LOTS_BEFORE = re.compile(
    r"\b(?:lots?|wafers?|wafer starts|production|fleet)\b|批次|晶圆|产线", re.I
)


def _last_pronoun(text: str) -> tuple[str, int]:
    """ "we", "they"… : the last subject pronoun in the text ("we" for 我们), and where it ends;
    ("", -1) when there is none."""
    pronouns = list(PRONOUN_LEAD.finditer(text))
    if not pronouns:
        return "", -1
    word = pronouns[-1].group(0).lower()
    return ("we" if word in ("我们", "咱们", "we") else word), pronouns[-1].end()


def _we_ran(lead: str) -> bool:
    """Is the last subject before a speaker's measuring verb "we", with no wish or plan after it?"""
    word, end = _last_pronoun(lead)
    if word != "we":
        return False
    rest = lead[end:]
    return len(rest) <= 24 and not WANT_LEAD.search(rest) and not LOTS_BEFORE.search(lead)


DROPPED_LEAD = re.compile(r"(?:只|也|又|都|还|就|先|再|后来|然后|最后|已经|当时|一共)*")


PARTICIPLE = re.compile(r"\w+ing\b", re.I)


# a measuring word that is a noun: "the outside re-test", "an independent run"
NOUN_BEFORE = re.compile(r"\b(?:the|a|an|this|that)\s+(?:[\w-]+\s+)?$", re.I)


# the speaker's own: "in our own lab", "我们的团队"
FIRST_PERSON_OWN = re.compile(
    r"(?:\b(?:our|my)\s+(?:own\s+)?|我们(?:的|在|自己的)?(?:自家|自己的?)?|我的)\s*$", re.I
)


def firm_name(more: int) -> str:
    """A firm's name: one word with a capital inside ("SemiAnalysis"), or capitalised words,
    `more` or more after the first ("Halden Labs"), on one line and never across a sentence's end
    ("… OpenAI chip Jalapeño. Moritake Cloud is …")."""
    return (
        r"(?-i:[A-Z][a-z]+[A-Z][\w&.'’-]*"
        rf"|[A-Z][\w.'’-]*(?:(?<!\.)[ \t]+(?:&[ \t]+)?[A-Z][\w.'’-]*){{{more},3}})"
    )


FIRM_NAME = re.compile(firm_name(1))
# a name followed by a workload or a harness word names a benchmark, not a firm
BENCHMARK_AFTER = re.compile(
    r"\s*(?:\d+(?:\.\d+)?\s*k\s*(?:/|input|输入)|(?:harness|benchmark|suite)\b|框架|负载|基准|套件)",
    re.I,
)
NAME_WORD_BEFORE = re.compile(r"(?-i:[A-Z][\w&'’-]*)\s+$")
WORD = re.compile(r"[A-Za-z][\w'’-]{3,}")


# a capitalised name right before a measuring verb: "Kestrel Analytics has now re-run …"
# (a name of two words or more, or one with a capital inside: "Halden Labs", "SemiAnalysis";
# never a pronoun or a line's label such as "Silicon tested:")
NAMED_RUNNER = re.compile(
    r"(?:^|[,;:—]\s*|\b(?:and|that|as|after|when|where)\s+)"
    r"(?!(?:We|They|It|He|She|I|You|This|That|These|Those|The|A|An|Our|Their|Its)\b)"
    rf"(?P<name>{firm_name(1)})"
    r"(?:\s+(?:in|of|from)\s+(?-i:[A-Z][\w-]+)(?:\s+(?-i:[A-Z][\w-]+))?)?"  # "Rheingold Systems in Munich"
    # "Larkfield Testing, which received a node,", ", based in Munich,", ", a lab in Munich,"
    r"(?:,\s+(?:which|who|based|an?|the)\s+[^,;.]{1,80},)?"
    # a headline's first deed, then the run: "SemiAnalysis gets its own Jalapeño boards, measures …"
    r"(?:\s+(?:gets|got|receives|received|secures|secured|obtains|obtained|takes|took)\s+[^,;.]{1,60},)?"
    r"\s+(?:has\s+|have\s+|had\s+)?(?:now\s+|also\s+|since\s+|independently\s+|just\s+)?"
    r"(?:ran|re-?ran|re-?run|measured|re-?measured|tested|re-?tested|benchmarked|clocked|timed"
    r"|repeated|replicated|reproduced|(?<=has )run|(?<=have )run|(?<=had )run|(?<=now )run"
    r"|clocks|measures|re-?tests|re-?runs|re-?measures|benches|benched)\b"
    r"(?!:|\s+at\b)"  # "DeepSeek V4 ran at 21,300" is a model's figure
)


NOT_OWNERS_ROLE = re.compile(
    r"独立|第三方|无(?:股权|业务|合作|利益)|没有(?:任何)?(?:关系|关联|合作)|\bindependent\b|\bno (?:ties|affiliation|relationship)\b|\bnot affiliated\b",
    re.I,
)
GUEST_INTRO = re.compile(
    r"(?:嘉宾|受访者|受访人|访谈对象|演讲人|演讲者|主讲人|分享人|\bguests?|\binterviewee|\bspeakers?|\bpanelists?|\bpresenters?)\s*[:：]\s*"
    r"(?P<name>[^，,（(:：。.;；]{1,24})[，,（(]\s*(?P<role>[^。;；)）]{1,60})",
    re.I,
)


def _set_apart(text: str, at: int) -> bool:
    """Is the model at `at` named as no part of the run: in what the run is set apart from ("与 6 月
    那份只测 GPT-OSS 不同，这次换成了…", "Unlike the June report, which covered only GPT-OSS, …"),
    or as left out of it ("on all but Kimi K2.5", "除了 Kimi K2.5", "Kimi K2.5 is missing")?"""
    return (
        bool(SET_APART_ZH.search(text, max(0, at - 24), at) and DIFFERENT_ZH.match(text, at))
        or bool(UNLIKE_BEFORE.search(text, max(0, at - 60), at))
        or bool(MODEL_LEFT_OUT_BEFORE.search(text, max(0, at - 16), at))
        or bool(MODEL_LEFT_OUT_AFTER.match(text, at))
    )


SET_APART_ZH = re.compile(r"(?:与|和|跟|同)[^，,。；;]{0,20}$")
DIFFERENT_ZH = re.compile(r"[^，,。；;]{0,24}?(?:不同|不一样|有别|有所不同)")
UNLIKE_BEFORE = re.compile(r"\bunlike\b[^,;.]{0,60}$", re.I)
# a model the run left out: "on all but Kimi K2.5", "除了 Kimi K2.5", "Kimi K2.5 is missing"
MODEL_LEFT_OUT_BEFORE = re.compile(
    r"\b(?:all but|except(?: for)?|excluding|other than|apart from|save for|without)\s+(?:the\s+)?$|除了?\s*$|除\s*$",
    re.I,
)
MODEL_LEFT_OUT_AFTER = re.compile(
    r"[\w .-]{0,24}?\s+(?:is|was|were|are)\s+(?:missing|absent|left out|not (?:tested|run|included|covered))\b"
    r"|[\w .-]{0,24}?(?:缺席|没测|未测|没有测|没跑|未跑|不在其中)",
    re.I,
)


# a firm named as one the party has ties with, or none: "和英伟达、OpenAI 都没有合作关系的", "with
# no ties to Nvidia or OpenAI"
TIES_AFTER = re.compile(
    r"[^，,。；;]{0,16}?(?:都|均|并|也)?(?:没有|没|无|有)(?:任何)?(?:合作|利益|商业|隶属|股权|资金|业务)?"
    r"(?:关系|关联|往来|瓜葛)的"
)
TIES_BEFORE = re.compile(
    r"\b(?:ties|tie|affiliation|relationship|connection|links?)s?\s+(?:to|with)\s+"
    r"(?:[\w'’-]+\s*(?:,|and|or)?\s*){0,3}$",
    re.I,
)
# a maker whose hardware a party buys or rents: "a cloud operator that leases both Nvidia and
# OpenAI hardware", "一家同时租用英伟达与 OpenAI 硬件的云厂商" (the maker, not a device run)
RENTS_BEFORE = re.compile(
    r"(?:\b(?:leases?|leased|rents?|rented|buys?|bought)\s+(?:both\s+)?|(?:租用|采购|购买)(?:了)?)\s*$",
    re.I,
)
MAKERS_HARDWARE = re.compile(
    r"\s*(?:(?:and|&|与|和|及|、)\s*[\w.-]+\s*)?(?:hardware|gear|gpus|硬件|设备)", re.I
)


# a name (not the owner's: checked by the caller's order) right before "自己", "itself"
NAME_BEFORE = re.compile(r"(?-i:[A-Z][\w&.-]+(?:\s+[A-Z][\w&.-]+){0,2})\s*$")


HARDWARE_OF = re.compile(rf"{HARDWARE_WORDS}的\s*$")
CUSTOMER = re.compile(r"客户|租户|用户|customers?\b|tenants?\b|clients?\b", re.I)


# a spot check said as what the party did not do: "in its own lab rather than watching"
SET_AGAINST = re.compile(r"\b(?:rather than|instead of|not just|not merely)\s+$", re.I)
# a spot check set against the party's own run: "与 8 月只是在现场见证不同", "rather than watching"
UNLIKE_BEFORE = re.compile(
    r"与[^，,。]{0,24}不同|不同于|不再(?:只是)?|\b(?:rather than|instead of|unlike|no longer|not just)\b"
    # "去年他们只是在现场见证，而这一次…亲手跑了", "last year it only watched; this time it ran"
    r"|只是[^。；]{0,60}[，,]\s*(?:而|但|不过)?\s*(?:这一次|这次|此次|如今)"
    r"|\bonly (?:watched|witnessed|observed)\b[^.]{0,80}\bthis time\b"
    # the party told by its earlier visit: "当初来抽查的人，这次自己跑了", "现场抽查的那家机构，这次没再只当监考"
    r"|(?:当初|此前|八月|8 ?月|上次|去年)[^。；]{0,30}(?:抽查|见证|旁观|监考)[^。；]{0,16}[，,]\s*(?:它|他们)?\s*这(?:一)?次"
    r"|\b(?:back|last) (?:in )?(?:august|time|year)\b[^.]{0,60}\b(?:watched|witnessed|observed|spot-checked)\b[^.]{0,60}\bthis time\b",
    re.I,
)


# a verb that says the device was run, not that a figure was disclosed or reached
RAN_VERB = re.compile(
    r"跑|实测|测了|测得|\b(?:ran|runs?|re-?ran|measured|tested|benchmarked|clocked)\b", re.I
)


RENTED_FROM = re.compile(
    r"\b(?:rented|leased|borrowed|bought|sourced|hired)\s+(?:[\w-]+\s+){0,2}?from\s+(?:an?\s+|the\s+)?$"
    r"|(?:租自|借自|购自)\s*$",
    re.I,
)


def _supplied(text: str, at: int) -> bool:
    """Is the party named at `at` the one the hardware was rented or bought from, not who ran it?"""
    return bool(RENTED_FROM.search(text, max(0, at - 40), at))


PHRASE_BREAK = re.compile(r"\b(?:in|on|at|for|by|from|with|than|and|of)\b", re.I)


VERB_WORD = re.compile(r"[\w-]+")


OBJECT_GAP = re.compile(r"\s*(?:(?:the|its|an?|[\w-]+(?:'s|’s))\s+)?", re.I)


SAID_RUNNER = re.compile(
    rf"(?P<name>{firm_name(0)})"
    # (or its team: "Hugging Face's inference team says it has run …")
    r"(?:(?:'s|’s)\s+(?:[\w-]+\s+)?(?:team|group|engineers|lab|unit|division))?"
    r"\s+(?:said|says|announced|reported|wrote)\s+(?:[\w-]+\s+){0,3}?(?:that\s+)?(?:it|they)\s+"
    r"(?:has\s+|have\s+|had\s+)?(?:now\s+|also\s+|just\s+|finally\s+|since\s+)?"
    r"(?:ran|re-?ran|re-?run|measured|re-?measured|tested|re-?tested|benchmarked|operated|repeated)\b"
)


# a headline's source before its colon: "Tessaract Labs: Jalapeño drew 590 W sustained"
# (a testing firm by its kind, not any capitalised word: "Explainer:", "Update:", "Nvidia:")
HEADLINE_SOURCE = re.compile(
    r"^\W*(?P<name>(?-i:(?:[A-Z][\w&'’-]+[ \t]+){1,3}(?:Research|Instruments|Analytics|Benchmarks"
    r"|Benchmarking|Testing|Labs?|Laboratory|Compute|Computing|Institute|University)))\s*[:：]\s"
)


# a name whose own runs or hardware it was: "from SemiAnalysis's own runs", "the firm's own systems"
OWN_RUNNER = re.compile(
    rf"(?P<name>{firm_name(0)})(?:'s|’s)\s+own\s+(?:[\w-]+\s+){{0,2}}?"
    r"(?:runs?|tests?|measurements?|benchmarks?|systems?|hardware|boards?|racks?|lab)\b"
)


# a name a run is done by: "Runs submitted and executed by Nimbus Cloud on its own cluster"
BY_RUNNER = re.compile(
    r"\b(?:ran|run|runs|executed|performed|conducted|carried out|measured|tested|benchmarked"
    r"|re-?run|re-?tested|re-?measured|audit|study|evaluation|re-?test|replication)"
    r"\s+(?:and\s+\w+\s+)?(?:independently\s+)?by\s+(?:the\s+)?"
    rf"(?P<name>{firm_name(0)})",
    re.I,
)


# a Chinese name that opens a sentence and publishes a report: "钛度周三发布报告"
ZH_FIRM_REPORT = re.compile(
    r"(?:^|(?<=[，,。；;\n]))\s*(?P<name>[\u4e00-\u9fff]{2,4}?)"
    r"(?=\s*(?:周[一二三四五六日]|今天|昨天|昨日|日前|近日|本周|上周)?\s*(?:发布|公布|晒出|发表)了?"
    r"(?:一份|最新的?)?(?:报告|测试|评测|结果|数据|跑分))"
)


KNOWN_RUN = "known"  # `_who`: the owner did the run, and it is the one already published
THE_BEFORE = re.compile(r"\b(?:the|these|those)\s+$", re.I)
COMPANY_AFTER_FIRM = re.compile(r"the (?:company|firm)\b", re.I)


# a name whose last word is a testing firm's kind: "Sable Point Research", "Pellworth
# Instruments", "Corvane Cloud" (not "the Inference Systems Summit")
FIRM_KIND = re.compile(
    r"(?P<name>(?-i:(?:[A-Z][\w&'’-]+[ \t]+){1,3}(?:Research|Instruments|Analytics|Benchmarks"
    r"|Benchmarking|Testing|Labs?|Laboratory|Cloud|Compute|Computing|AI)))(?![ \t]+(?-i:[A-Z]))"
)


# a firm its kind introduces in Chinese: "研究机构 SemiAnalysis", "云服务商 Northvale"
ZH_FIRM_KIND = re.compile(
    r"(?:研究机构|研究公司|分析机构|分析公司|咨询公司|咨询机构|测试机构|评测机构|检测机构|第三方机构"
    r"|云服务商|云服务厂商|云厂商|云端业者|云业者|研究团队|研究所|初创公司|新创公司)\s*"
    r"(?P<name>(?-i:[A-Z][\w.&'’-]*(?:\s+[A-Z][\w.&'’-]*){0,2})"
    # or a Chinese name of its kind: "独立评测机构启衡测评", "测试机构北辰实验室"
    r"|[\u4e00-\u9fff]{2,6}?(?:测评|评测|实验室|研究院|研究所|智算|算力|科技))"
)


ZH_KIND_SUFFIX = re.compile(r"(?:测评|评测|实验室|研究院|研究所|智算|算力|科技)$")


# a firm introduced as one: "Brightline Systems, which benchmarks…", "Fieldnote's R1 run"
FIRM_INTRO = re.compile(
    rf"(?P<name>{firm_name(1)})"
    # (not a benchmark: "AgentX, the part of InferenceX which measures …")
    r"(?:,(?!\s+(?:the|a|an)\s+(?:[\w-]+\s+)?(?:part|section|portion|benchmark|suite|leaderboard)\b)"
    r"\s+(?:which|a|an|the)\s+(?:[\w-]+\s+){0,4}?"
    r"(?:benchmarks|tests|measures|firm|company|lab|consultancy|startup|provider|house|shop|group"
    r"|cloud|operator|customer)\b"
    r"|\s+is\s+(?:one of\s+(?:a handful of|several|many|the|few)|a|an|the)\s+(?:[\w-]+\s+){0,4}?"
    r"(?:clouds?|providers?|labs?|firms?|compan(?:y|ies)|consultanc(?:y|ies)|startups?|operators?"
    r"|customers?|test houses?)\b"
    r"|(?:'s|’s)\s+(?:[\w/-]+\s+){0,4}?(?:run|runs|test|tests|report|benchmark|numbers|results"
    r"|measurements|replication|re-?test|study|evaluation|paper)\b"
    # "Quartzline Games, which runs NPC dialogue on GPT-OSS, got three weeks on a node and
    # published its own measurements"
    r"|(?:,\s+(?:which|who)\s+[^,;.]{1,80},)?(?:\s+[^,;.]{1,80}?\s+and)?"
    r"\s+(?:posts|posted|publishes|published|releases|released|reports|reported)\s+(?:its|their)\s+"
    r"(?:[\w/-]+\s+){0,3}?(?:numbers|results|figures|measurements)\b)"
)


# a name, one word or more, that owns a test: "Brightline's full Jalapeño replication"
FIRM_WORK = re.compile(
    r"(?P<name>(?-i:[A-Z][\w.&-]+(?:\s+(?:&\s+)?[A-Z][\w.&-]+){0,3}))(?:'s|’s)\s+(?:[\w/-]+\s+){0,4}?"
    r"(?:run|runs|test|tests|re-?test|replication|benchmark|measurements|study|evaluation)\b"
)


# a one-word name its apposition makes a firm: "Parcelgrid, a logistics software company,"
FIRM_APPOSITION = re.compile(
    r"(?<![\w’'-])(?<![\w,] )(?P<name>(?-i:[A-Z][a-z][\w&'’-]+)),\s+(?:a|an)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:firm|company|lab|consultancy|startup|start-up|provider|house|shop|cloud|operator|customer"
    r"|bank|retailer|studio|developer|marketplace|platform)\b"
)


# words that start a capitalised stretch but name no firm
MONTHS = {
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December", "Last", "Next", "Early", "Late", "Mid",
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
}  # fmt: skip
FIRM_NOT = {
    "The", "A", "An", "This", "That", "These", "Those", "Our", "Their", "Its", "We", "They",
    "It", "In", "On", "At", "For", "By", "With", "And", "But", "So", "As", "When", "After",
    "Nvidia", "Google", "Amazon", "Microsoft", "Meta", "AMD", "Intel", "Broadcom", "TSMC",
    "GitHub", "Hugging", "HuggingFace", "arXiv", "X", "Weibo", "Reddit", "Twitter", "YouTube",
    "官方", "公司", "该公司", "团队", "他们", "我们", "对方", "双方", "媒体", "外媒", "记者", "随后",
    "此前", "同时", "另外", "此外", "今天", "昨天", "目前", "近日", "日前", "本周", "上周",
}  # fmt: skip


# where a run took place, said after it: "running Jalapeño in its own lab"
OUR_PLACE = re.compile(r"(?:at|in|on) our\b|在我们", re.I)
OWN_PLACE = re.compile(r"\b(?:in|at|on) (?:its|their) own\s+$", re.I)

# the owner as where a run was done: "in OpenAI's lab", "at OpenAI", "在 OpenAI 的实验室"
OWNER_AS_PLACE = re.compile(r"\b(?:in|at|inside|within)\s+(?:the\s+)?$|在\s*$", re.I)
ITS_OWN_RUNS = re.compile(
    r"\b(?:its|their) own (?:[\w-]+\s+){0,2}?(?:runs?|tests?|benchmarks?|measurements?|numbers|data)\b"
    r"|(?:自家|自己的)(?:测试|实测|跑分|数据)",
    re.I,
)
SUBJECTS_OWN = re.compile(r"(?:'s|’s)\s+(?:[\w-]+\s+){0,2}|\s*的\s*", re.I)
CLAUSE_STOP = re.compile(r"[;；。]|[,，]\s*(?:but|while|whereas|and)\b|[,，]\s*(?:但|而)")


# the owner inside what 把 or 将 marks as the object: "把 OpenAI 的方法复刻了一遍"
OBJECT_MARK = re.compile(r"(?:把|将)\s*$")


# the owner lending, said in the passive: "who were loaned two boards by OpenAI"
LENT_BY = re.compile(
    r"\b(?:loaned|lent|supplied|provided|given|shipped|sent|furnished|hosted|owned)\s+(?:[\w'’-]+\s+){0,5}?by\s+$"
    # hardware said to come from the owner: "working on boards from OpenAI's academic program"
    r"|\b(?:boards?|racks?|systems?|nodes?|hardware|units?|chips?|parts?|samples?|machines?|loaners?)"
    r"\s+(?:[\w-]+\s+){0,2}?from\s+$"
    # "somebody other than OpenAI": whoever it is, not the owner
    r"|\b(?:other than|besides|apart from|except(?: for)?)\s+$"
    r"|\b(?:loaner|loaned|borrowed|on loan|lent|received|receiving|obtained|got|took delivery of)\b"
    r"[^.;]{0,40}\bfrom\s+$"
    # "从 OpenAI 手里借到两张加速卡", "向 OpenAI 借的"
    r"|(?:从|向|找)\s*$",
    re.I,
)


# the owner lending the hardware, not running it: "OpenAI lent", "OpenAI 出借的"
SUPPLIER = re.compile(
    r"\s*(?:had\s+|has\s+)?(?:lent|loaned|supplied|provided|gave|shipped|sent|loans|lends)\b"
    r"|\s*(?:[^，,。]{0,8}?(?:出借|借出|借给|借测给|提供|寄送|送来|借的|借来的|借测的|托管的|代管的|运营的))"
    r"|\s*(?:开放|开通|授权)的\s*(?:远程)?\s*(?:节点|机柜|板卡|硬件|机器|系统|集群|访问|权限)|\s*(?:已经?)?向[^，,。]{0,12}?(?:寄送|寄出|提供|出借|借出|交付)",
    re.I,
)


# party words that name nobody by themselves, and what may stand before them then
BARE_PARTY = re.compile(
    r"(?:(?:hardware|chip|silicon|systems|engineering|performance|perf|compiler|software|research"
    r"|benchmarking)\s+(?=team|group|engineer))?"
    r"(?:lab|labs|laboratory|team|teams|groups?|engineers?|researchers?|testers?|firm|staff|submitter)\b|团队|实验室|工程师|研究人员|小组|组"
    r"|负责人",
    re.I,
)


NAMED_AFTER = re.compile(r"\s+(?:at|from|of|in|with)\s+(?:the\s+)?(?-i:[A-Z])", re.I)


# what a team does, said before it in Chinese: "硬件团队" names nobody more than "团队" does
TEAM_FUNCTION = re.compile(
    r"(?:硬件|芯片|工程|性能|编译器?|软件|研发|系统|基础设施|推理|内核|测试)$"
)
BARE_BEFORE = re.compile(
    r"(?:(?:^|[,.;:!?，。；：、()（）])\s*"  # nothing of its own before it
    r"|(?:^|\s)(?:the|its|their|this|that|these|those|after|and|but|when|while|as|because|then|so"
    r"|by|with|from)\s+(?:(?<=its )own\s+)?"  # a definite or a joining word:
    # no name, no "a" that brings a new one ("in its own lab": the owner of "its" is named before)
    r"|该|这个|这支|这家|此|其|所以|因此|但是?|而且?|并且?|于是|后来|当时|那时"
    r"|在|在自家|自家|在自己的|自己的|(?<![某该这那此本家])公司|自家[\u4e00-\u9fff]{1,6})$",
    # "在实验室测试中", "在自家圣何塞实验室", "公司硬件团队" (not "该公司", a company just
    # introduced): the one named before
    re.I,
)


# a party word's own possessive, pointing back at the sentence's owner: "its own lab", "自家实验室"
# a team of the house, said without naming it: "测试由内部团队完成", "by its in-house engineers"
IN_HOUSE = re.compile(
    r"(?:内部|自家)(?=团队|人员|工程师|实验室)|\b(?:in-house|internal)\s+(?=team|engineers|staff|lab)",
    re.I,
)
# the people who make a product, named by it: "a Jalapeño engineer", "Jalapeño 团队"
STAFF = re.compile(
    r"(?:the\s+)?(?:team|engineers?|staff|architects?|designers?|developers?)|团队|工程师|研发团队",
    re.I,
)
STAFF_AFTER_NAME = re.compile(r"(?:'s|’s|的)?\s*(?:[\w-]+\s+){0,2}?", re.I)
TEAM_WORD = re.compile(r"(?:the\s+)?team|团队", re.I)
SAYS_BEFORE = re.compile(
    r"(?:称|表示|说|透露|介绍|\bsays?\s+(?:that\s+)?|\bsaid\s+(?:that\s+)?)\s*$", re.I
)
OWNERS_TEAM = re.compile(r"(?:'s|’s|的)?\s*(?:[\w-]+\s+){0,2}?(?:team\b|团队)|\s*\S{0,4}团队", re.I)
# a question to the interviewee about their own run: "What did you actually run?", "你们这次测了什么？"
YOU_RAN = re.compile(
    r"\b(?:what|which)\b[^?]{0,40}\b(?:did|have) you\b[^?]{0,30}\b(?:run|test|measure|cover|try|benchmark)"
    r"|你们?[^？?]{0,10}(?:测|跑|复测)了?(?:什么|哪些|哪几|哪一)",
    re.I,
)
# a question whether anyone ran it, and an answer that says "we did"
ANYONE_RAN = re.compile(
    r"\b(?:has|have|did)\s+(?:anyone|anybody|any of you|you)\b[^?]{0,40}"
    r"\b(?:run|ran|tested|measured|benchmarked)\b|有没有人[^？?]{0,20}(?:测|跑)",
    re.I,
)
WE_DID = re.compile(
    r"(?:[^:：]{1,60}[:：]\s*)?(?:yes,?\s+)?(?:we|i)\s+(?:did|have|ran it|tested it)\b|(?:[^:：]{1,60}[:：]\s*)?(?:有，?)?我们(?:测|跑)(?:过|了)",
    re.I,
)
ALSO = re.compile(r"亦|也|同样|另外|\balso\b|\btoo\b|\bas well\b|\bseparately\b", re.I)
COMPANY_WORD = re.compile(
    r"\bthe (?:company|firm|vendor|chipmaker)(?:'s|’s)?\s+(?:own\s+)?$|该公司的?\s*$|(?:^|(?<=[在于其]))公司的?\s*$"
    r"|(?:由|是)?(?:厂商|原厂)(?:的)?\s*$",  # "上述数据由厂商自行测试": the maker's own
    re.I,
)
OWN_WORD = re.compile(
    r"(?:\b(?:its|the company's|the company’s)\s+(?:own\s+)?(?:in-house\s+)?(?:[\w-]+\s+)?|\bin-house\s+"
    r"|自家|自有|自己的|公司内部|内部|公司的?)\s*$",
    re.I,
)


POSSESSIVE = re.compile(r"^\s*(?:'s|’s|的)?\s*(?:(?:own|new|in-house|自研)\s*)?")


PAIR_JOIN = re.compile(
    r"[`'\"’”)）\]\s]*(?:nvl\d+\s*)?(?:racks?\s+|systems?\s+|boards?\s+|机柜|系统|板卡|服务器|整机)?\s*"
    r"(?:and|against|versus|vs\.?|alongside|next to|beside|和|与|及|对比|对阵)\s*"
    # (a Chinese attribute may hold a name, spaced by normalising: "一台向 OpenAI 借来的")
    r"(?:on\s+|with\s+)?(?:an?\s+)?(?:\w+(?:'s|’s)\s+|(?:\w+\s*){1,4}?的\s*|the\s+)?"
    r"(?:(?:one|two|three|four|\d+|loaned|rented|borrowed|its|their|own|a0|b0)\s+){0,3}",
    re.I,
)


# a device's published words, not the device: "Jalapeño's claims", "GB300's figures"
DEVICE_WORDS = re.compile(
    r"(?:'s|’s)\s+(?:(?:official|published|own)\s+)?(?:claims?|figures?|numbers?|results?|data|headline)\b"
    r"|\s*的\s*(?:官方|公布的?)?(?:数字|数据|成绩|结果|说法|宣称)"
    # "仍落后 Jalapeño 官方数字", "behind Jalapeño official figures"
    r"|\s*(?:官方|自报|公布的?)(?:的)?(?:数字|数据|成绩|结果)|\s+(?:official|published)\s+(?:figures?|numbers?|results?)\b",
    re.I,
)


COMPARISON_NOUN = re.compile(
    r"\s*(?:的)?(?:对比|比较|对决|同台|正面对比|head[- ]to[- ]head|comparison|match-?up)", re.I
)


def speakers_aside(text: str, starts: list[int]) -> bool:
    """Are the devices a short line names only the affiliation of who speaks next, in brackets
    ("高赞回答（某芯片公司架构师，4.1k 赞）：")? Such a line names no device the story is about."""
    told = text.rstrip()
    return (
        bool(starts)
        and len(told) <= 60
        and told.endswith((":", "："))
        and all(open_bracket(told, 0, start) >= 0 for start in starts)
    )


def _compared_between(text: str, start: int, end: int) -> bool:
    """Is a comparison said between two names, not closing the first one's clause ("Rubin CPX 与
    GB300 的对比，Jalapeño 并未参与测试" compares the first two only)?"""
    found = PAIR_COMPARED.search(text, start, end)
    if found is None:
        return False
    # ("与团队测得的 GB300 相比，Jalapeño 低 1.5 至 3.2 倍": a frame the next clause completes)
    return found.group(0) == "相比" or not COMMA_OR_STOP.search(text, found.end(), end)


COMMA_OR_STOP = re.compile(r"[，,；;。]")
PAIR_COMPARED = re.compile(
    r"\b(?:than|vs\.?|versus|against|ahead of|outperform\w*|beat|beats|edged out|level with)\b"
    r"|比|领先|落后|对比|相比|持平|打平|反超|超过|胜过|不敌|输给|压过",
    re.I,
)


BOTH = re.compile(
    r"\bboth (?:systems|chips|devices|machines|racks)\b|\b(?:on|across) both\b(?!\s+(?:counts|fronts|measures|metrics))"
    r"|\b(?:for|with|at|to) both(?=\s*[.;,]|$)"  # "our team at the keyboards for both."
    r"|\bside by side\b|两者|二者|双方|同台|放在一起|两边(?:都|均)|两套(?:系统|机柜)?(?:都|均)",
    re.I,
)


# who a sentence is attributed to, at its end: ", OpenAI said on its engineering blog."
ATTRIBUTION = re.compile(
    r",\s*(?:according to\s+[^,;]{1,60}|[^,;]{1,40}?\s(?:said|says|reported|wrote|added|announced)"
    r"(?:\s+(?:on|in)\s+[^,;]{1,80})?)\s*[.。]?\s*$"
    r"|[”\"],?\s*(?:said|says|wrote|added)\s+[^.;“\"]{1,100}[.。]?\s*$"  # '…," said Richard Ho, …'
    r"|[”\"」]\s*[^。，,“”\"]{1,50}?(?:写道|表示|说|称|指出)\s*[。.]?\s*$",  # "“…”OpenAI 一位工程师写道。"
    re.I,
)


# who speaks a sentence that opens on them: "OpenAI 工程师：…", "OpenAI 发布更新，称“…"
# a line that says who speaks below it: "jho-openai (Maintainer, OpenAI) replied:", "某工程师回复："
SPEAKER_LINE = re.compile(
    r"\b(?:replied|replies|wrote|writes|said|says|commented|comments|answered|answers|posted)"
    r"\s*[:：]\s*$|(?:回复|回答|写道|表示|说|评论)\s*[:：]\s*$",
    re.I,
)
DOC_SAYS = re.compile(
    r"\W*(?:配套|随附|同期|该|这篇)?(?:博文|博客|公告|声明|说明|文档|新闻稿)(?:中|里)?(?:称|表示|写道|说)"
    r"|\W*the (?:accompanying |companion )?(?:post|blog post|release|statement|announcement)"
    r"\s+(?:said|says|wrote|writes|added)\b",
    re.I,
)
SAID_BY = re.compile(r"[^:：“\"「。]{1,40}?(?:[:：]|(?:称|表示|说|写道|指出)\s*[:：]?\s*[“\"「])")


# a sentence that only says who said the one before: "OpenAI 的一位工程师在博客中写道。"
ATTRIBUTED_LINE = re.compile(
    r"[^。.!?？！“”\"]{1,60}?(?:写道|表示|说|称|指出|\bwrote\b|\bsaid\b|\badded\b)[^。.!?？！“”\"]{0,60}[。.]?\s*$",
    re.I,
)


THE_DOCUMENT = re.compile(
    r"\bthe (?:post|blog(?: post)?|statement|release|announcement|paper|note|update|changelog)\b",
    re.I,
)
THE_COMPANY = re.compile(
    r"\bthe (?:company|firm's (?:own )?team)\b|该公司|公司方面|公司(?:技术|官方)?博客", re.I
)


# what a lab has tested over the years, not a run: "has tested most of the accelerators on the market"
TRACK_RECORD = re.compile(
    r"\s+(?:most|all|many|dozens|hundreds|scores|every|each|nearly every|almost every)\s+(?:of\s+)?(?:the\s+)?(?:[\w-]+\s+){0,2}?(?:accelerators?|chips?|gpus?|systems?|parts?|hardware|devices?)\b",
    re.I,
)
# a person's line of work before a measuring word: "a researcher who runs inference benchmarks"
LINE_OF_WORK = re.compile(
    r"\b(?:who|that)\s+(?:also\s+)?(?:runs|leads|heads|oversees|manages|directs|tracks|covers|studies)\s+(?:[\w-]+\s+){0,3}$",
    re.I,
)
# a sentence that only says who says so: "SemiAnalysis says so plainly."
SAYS_ONLY = re.compile(
    r"^\W*\S+(?:\s+\S+){0,3}\s+(?:says|said|wrote|writes|notes|noted|adds|added)\b[^.;]{0,30}[.!]?\s*$|^\S{2,12}(?:表示|称|说)",
    re.I,
)
# the owner of the benchmark a run used is not who ran it: "Measured on SemiAnalysis's InferenceX benchmark"
BENCHMARK_OWNED = re.compile(
    r"[\w.&-]+(?:\s+[\w.&-]+){0,2}?['’]s\s+(?:[\w-]+\s+){0,2}(?:benchmark|suite|harness|test suite|leaderboard)s?\b",
    re.I,
)
# two devices joined as one object: "a Rubin system and an OpenAI Jalapeño system"
OBJECT_PAIR = re.compile(
    r"[\w\s-]{0,20}?\s(?:and|&)\s(?:an?\s|the\s|its\s)?(?:[\w'’-]+\s){0,2}|\s*(?:和|与|以及|、)\s*",
    re.I,
)
# the possessive between the subject and a stepping: "Jalapeño's B0", "Jalapeño 的 B0"
STEPPING_OF = re.compile(r"^\s*(?:['’]s|的)?\s*")
# an outside party's own people: "由中心自己的工程师", "the centre's own engineers"
OWN_PEOPLE = re.compile(
    r"((?:中心|实验室|大学|学院|机构|研究所|研究院|课题组|联盟))(?:自己|自家)的\s*$"
    r"|\b((?:lab|laboratory|centre|center|university|institute|consortium))['’]s own\s+$",
    re.I,
)
# a run that compares what it names: "做了对比", "pitted them against each other"
COMPARING = re.compile(
    r"(?:做|进行)了?(?:一次|一轮|一组)?(?:对比|比较|对测|横评)|对比了|比较了|横评了|\b(?:compared|pitted|benchmarked (?:them|both) against each other)\b",
    re.I,
)
# the owner as a partner of the party named next: "与 OpenAI 有算力合作的北美云厂商"
PARTNER_AFTER = re.compile(r"\s*(?:有|保持|达成|签有|存在)?[^，,。]{0,6}?(?:合作|伙伴)(?:关系)?的")
# a second device the run was on: "on a Rubin rack it rents and on Jalapeño boards"
AND_ON = re.compile(
    r"[^,;.，。；]*?\band\s+(?:also\s+)?(?:on|with|across|against)\b|[^，。；;]*?(?:和|以及)在"
)
# both devices as the subject of the run: "两边都跑 GPT-OSS 120B", "both systems ran …"
BOTH_SIDES = re.compile(
    r"(?:两边|双方|两者|两套(?:系统|机柜)?|两台)(?:都|均)|\bboth (?:systems|sides|machines|platforms|racks)\b",
    re.I,
)
# a figure right after a correction's word: "正确数字为 0.72"
FIGURE_NEXT = re.compile(r"\s*(?:约|大约|about\s+|roughly\s+)?(?:每(?:千瓦|兆瓦|秒)\s*)?[\d.,]*\d")
# a ", which …," or ", who …," aside on the party before it
ASIDE = re.compile(r"[,，]\s*(?:which|who)\b[^,;，；]{0,160}[,，]", re.I)
PRONOUN_AFTER_BREAK = re.compile(r"[;；]\s*(?:they|he|she)\s+(?:\w+\s+)?$", re.I)
# a run said to be new ("We've now run"), and a run on a setup dated to the first one ("the same
# configuration we used last August", "沿用 8 月的配置")
NOW_BEFORE = re.compile(r"\b(?:now|again|newly|just)\s+$|(?:现在|如今|最近|重新|再次|又)$", re.I)
SAME_SETUP = re.compile(
    r"\b(?:the\s+)?same\s+(?:[\w-]+\s+){0,3}(?:configuration|config|setup|workload|settings?|harness"
    r"|scripts?|conditions?|methodology|tests?|benchmark|suite)\s+(?:as|that|which|we|they|it|(?-i:[A-Z])[\w-]*)\b"
    r"|沿用[^，,。；;]{0,16}(?:配置|设置|负载|条件|脚本)|(?:和|与|跟)[^，,。；;]{0,16}(?:一样|相同)的(?:配置|设置|负载|条件|脚本)",
    re.I,
)
# what repeats figures already out: "The note repeated the August figures — …", "重申了…数据"
RETOLD = re.compile(
    r"\b(?:repeated|repeats|restated|restates|reiterated|reiterates|recapped|recaps)\s+(?:that\s+)?"
    r"(?:the\s+|its\s+|their\s+|[\w-]+(?:'s|’s)\s+)?(?:[\w'’-]+\s+){0,3}(?:figures|numbers|results|claims?|data)\b"
    r"|(?:重申|复述|重复)了?[^，,。；;]{0,12}(?:数据|数字|结果|成绩)"
    # an earlier run the story follows on from: "继本月初滑铁卢大学对 GPT-OSS 120B 的复测之后"
    r"|继[^，,。；;]{1,40}$",
    re.I,
)
POSSESSED = re.compile(
    r"[^\s,;:]+(?:'s|’s)\s+(?!(?:own\s+)?(?:[\w-]+\s+)?(?:team|teams|lab|labs|engineers?|researchers?"
    r"|staff|people|group|testers?)\b)",
    re.I,
)
SUBJECT_PRONOUN = re.compile(
    r"(?:^|[,;]\s*|\band\s+(?:\w+\s+){0,3}|\bthat\s+)(?:it|they)\s+(?:[\w’'-]+\s+){0,4}$", re.I
)  # "…, and on Tuesday it published what it has measured", "…wrote that it had benchmarked"


# an indefinite run or test, not a further one: "a run with MTP on", "any 32k-input test" (not
# "a second run", "another test", "a new run")
A_KIND_OF = re.compile(
    r"(?:^|[,;:—]\s*|\b(?:and|or|but)\s+)(?:a|an|any)\s+"
    r"(?!(?:second|third|new|fresh|further|follow-up|repeat|later|separate|subsequent)\b)"
    r"(?:[\w-]+\s+){0,2}$",
    re.I,
)


PRONOUN_AGENT = re.compile(
    r"^\s*(?:it|they|the (?:lab|team|group|researchers|firm|company|tester)|its (?:engineers|team)|该(?:实验室|团队|机构|公司)|他们|其)\b"
    r"|\b(?:their|its) own\b|他们自己|其自有",
    re.I,
)


INDEPENDENCE = re.compile(
    r"\bno (?:ties|affiliation|relationship|relation|connection)\b[^,;.]*|\bnot (?:affiliated|connected|associated|tied)\b[^,;.]*"
    r"|\bunaffiliated with\b[^,;.]*|\bindependent (?:of|from)\b[^,;.]*|\b(?:has |have )?never worked (?:for|with)\b[^,;.]*"
    r"|\boutside (?:of )?(?=\S+\s+(?:get|got|ran|run|had|has|measured|tested|published))\S+"
    r"|[（(]\s*非[^）)]{0,20}[）)]"
    r"|与[^，,。]{1,16}?(?:无|没有|并无|毫无)(?:任何)?(?:合作|商业|资本)?(?:关系|关联|利益关系|往来|关)",
    re.I,
)


def _mask_independence(text: str) -> str:
    """A clause without its "no ties to <owner>" (naming the owner there says nothing of who ran
    it) and without a lab that is only where something went ("B0 样片回到实验室")."""
    text = INDEPENDENCE.sub(lambda m: " " * len(m.group(0)), text)
    return (
        MOVED_TO.sub(lambda m: " " * len(m.group(0)), text)
        if "实验室" in text or "lab" in text
        else text
    )


# a lab as where something went, not who ran it: "B0 样片回到实验室", "back in the lab"
MOVED_TO = re.compile(
    r"(?:回到|送回|运回|返回|到达|运抵|运到|送到|寄到)(?:了)?\S{0,4}?实验室|\bback (?:in|at|to) (?:the|our|its) lab\b",
    re.I,
)


# who 自测 is said of, right before it: "据云岭自测", "由该实验室自测", "SemiAnalysis 自测"
SELF_NAMED = re.compile(r"(?:据|由|经)[^，,。；;：:]{1,12}$|(?-i:[A-Z][\w&.-]+)\s*$")
