"""CRUXEval (facebookresearch/cruxeval, MIT) as a built-in study: bundled data, importer, pass@k re-scoring."""

from execstate.studies.cruxeval._data import DATA_PATH, STUDY, cruxeval_tasks, item_task, load_items
from execstate.studies.cruxeval._score import CruxevalScore, pass_at_k, score_file, score_generations

__all__ = [
    "DATA_PATH", "STUDY", "CruxevalScore", "cruxeval_tasks", "item_task", "load_items",
    "pass_at_k", "score_file", "score_generations",
]
