"""The error of a scoring case, below every module that raises it (``envs.scoring.cases``,
``envs.scoring.hk_cases``, ``envs.scoring.api``), so that none of them imports another for it."""

from __future__ import annotations


class CaseError(ValueError):
    """A case that cannot be scored: unparsable, impossible, or not a winning hand."""
