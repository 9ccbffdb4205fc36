"""score_parsed (the whole `tw16 score` result) of every case of every case file, under its own and every
named profile, with streaks, stakes and the hongkong dealer_pays_on_self_draw option varied: one JSON line each."""
import json, sys
from pathlib import Path
from envs.scoring.api import score_parsed
from envs.scoring.cases import CaseError, parse_case, MAX_STREAK

D = Path("tests/data")
cases = [json.loads(l) for f in ("standard.jsonl", "cases_profiles.jsonl", "cases_extras.jsonl", "cases_mcr.jsonl",
                                 "hongkong.jsonl", "hongkong_items.jsonl") for l in (D / f).read_text().splitlines() if l.strip() and not l.lstrip().startswith("#")]
out = open(sys.argv[1], "w")
n = ok = 0
for case in cases:
    for prof in (None, "standard", "strict16", "casual", "hongkong"):
        for streak in sorted({case.get("streak", 0), 0, 2, MAX_STREAK}):
            for stakes in (None, {"base": 0, "per_tai": 1}):
                for dp in (False, True):
                    c = dict(case, streak=streak)
                    if stakes:
                        c["stakes"] = stakes
                    if dp:
                        c["rules"] = dict(c.get("rules") or {}, dealer_pays_on_self_draw=True)
                    try:
                        r = score_parsed(parse_case(c, prof))
                        ok += 1
                    except (CaseError, ValueError) as e:
                        r = {"error": str(e)}
                    n += 1
                    out.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")
print({"cases": len(cases), "calls": n, "scored": ok})
