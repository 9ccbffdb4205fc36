"""The Computer Olympiad / TCGA bot protocol (shared/protocol/OLYMPIAD.md), both ways; docs/olympiad.md.

- ``codec``: tile ids (``100 * suit + 10 * rank + copy``) and message lines.
- ``process``: one external bot process (own folder and process group, a deadline per request,
  lines capped, ``/exit`` then killed).
- ``host``: ``olympiad:COMMAND`` as a tw16 agent (``OlympiadAgent``) and the ``Referee`` that
  ``agents.evaluation.arena.run_games`` uses to talk to it.
- ``seatview`` and ``bot``: any tw16 agent as a protocol bot (``tw16 bot --agent SPEC``).

``BOT_PROFILE`` and ``BOT_RULES`` are the rules a bot plays when none are given: the events' rules.
"""

BOT_PROFILE = "olympiad"  # the events' rules (envs/scoring/profiles/olympiad.toml, docs/olympiad_rules.md)
BOT_RULES: dict = {}  # options on top of the profile
