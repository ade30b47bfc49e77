"""Precision and recall of signal extraction on the labelled corpus, per signal and per language,
every error listed, and extraction speed. Touches no network.

    python bench/signals.py [--set dev|holdout|…|all] [--errors N] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from db.ledger import load_ledger  # noqa: E402
from watchers.corpus import load, predict, score, tally  # noqa: E402
from watchers.extract import extract_item, rules  # noqa: E402

CORPUS = ROOT / "tests" / "corpus"
# every labelled set in the corpus folder: the development set first, then the ones nothing was
# tuned on when they were written
SETS = sorted(
    (p.stem for p in CORPUS.glob("*.toml")), key=lambda n: (n != "dev", n != "holdout", n)
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=[*SETS, "all"], default="all")
    parser.add_argument("--errors", type=int, default=200, help="list at most this many errors")
    parser.add_argument("--repeat", type=int, default=3, help="timing passes over the corpus")
    args = parser.parse_args()
    names = SETS if args.set == "all" else [args.set]
    specs = {c.id: c.spec for name in ("jalapeno", "rubin") for c in load_ledger(name).claims}
    table = rules()
    for name in names:
        items = load(CORPUS / f"{name}.toml", ROOT)
        outcomes = [score(i, predict(i.item, specs, table)) for i in items]
        report(name, items, outcomes, args.errors)
    items = [i for name in names for i in load(CORPUS / f"{name}.toml", ROOT)]
    speed(items, specs, table, args.repeat)
    return 0


def report(name, items, outcomes, limit) -> None:
    overall = tally(outcomes)["all"] if tally(outcomes) else None
    print(f"\n== {name}: {len(items)} items")
    if overall:
        print(
            f"overall   precision {overall.precision:.3f}  recall {overall.recall:.3f}"
            f"   (tp {overall.tp}, fp {overall.fp}, fn {overall.fn})"
        )
    by_lang = tally(outcomes, key=lambda claim, o: o.item.lang)
    for lang, t in sorted(by_lang.items()):
        print(
            f"  {lang:<8}precision {t.precision:.3f}  recall {t.recall:.3f}   (tp {t.tp}, fp {t.fp}, fn {t.fn})"
        )
    print(f"\n  {'signal (claim)':<44}{'prec':>6}{'recall':>8}{'tp':>5}{'fp':>5}{'fn':>5}")
    for claim, t in sorted(tally(outcomes, key=lambda claim, o: claim).items()):
        print(f"  {claim:<44}{t.precision:>6.2f}{t.recall:>8.2f}{t.tp:>5}{t.fp:>5}{t.fn:>5}")
    wrong = [o for o in outcomes if o.false_positives or o.false_negatives]
    seeds = [o for o in outcomes if o.item.style == "seed"]
    print(
        f"\n  seed articles changing something: {sum(bool(o.predicted) for o in seeds)} of {len(seeds)}"
    )
    print(f"  items with an error: {len(wrong)}")
    for outcome in wrong[:limit]:
        title = " ".join(outcome.item.item.title.split())[:90]
        print(f"  - {outcome.item.id} [{outcome.item.style}] {title}")
        for claim, value in sorted(outcome.false_positives, key=str):
            print(f"      false +  {claim} = {value!r}")
        for claim, value in sorted(outcome.false_negatives, key=str):
            print(f"      missed   {claim} = {value!r}")


def forget_texts() -> None:
    """Empty the caches keyed by a sentence's text, so every pass reads every text as new, as a
    poll does: a pass must not time the one before it."""
    from watchers import context, extract, needles, parties, quantities

    for cached in (
        context._masked,
        quantities.quantities,
        quantities.bare_numbers,
        parties.firm_names,
    ):
        cached.cache_clear()
    needles.forget()
    extract.forget_read()


def speed(items, specs, table, repeat) -> None:
    best = None
    for _ in range(max(repeat, 1)):
        forget_texts()
        started = time.perf_counter()
        for labelled in items:
            extract_item(labelled.item, specs, rules_=table)
        elapsed = time.perf_counter() - started
        best = elapsed if best is None else min(best, elapsed)
    chars = sum(len(i.item.title) + len(i.item.text) for i in items)
    print(
        f"\nspeed: {len(items)} items ({chars / len(items):,.0f} characters on average) in"
        f" {best * 1000:,.0f} ms: {len(items) / best:,.0f} items/s on one core (best of {repeat})"
    )


if __name__ == "__main__":
    raise SystemExit(main())
