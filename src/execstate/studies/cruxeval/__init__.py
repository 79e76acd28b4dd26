"""CRUXEval (facebookresearch/cruxeval, MIT) as a built-in study: the bundled data and its importer.

Re-scoring CRUXEval generation files with pass@k is grading: see
``execstate.grade.score_file`` and ``execstate cruxeval-score``.
"""

from execstate.studies.cruxeval._data import (
    DATA_PATH,
    INPUT_QUESTION,
    LAMBDA_NOTE,
    LITERAL_CALLS,
    STUDY,
    cruxeval_tasks,
    item_input_task,
    item_task,
    load_items,
    takes_function,
)

__all__ = [
    "DATA_PATH",
    "INPUT_QUESTION",
    "LAMBDA_NOTE",
    "LITERAL_CALLS",
    "STUDY",
    "cruxeval_tasks",
    "item_input_task",
    "item_task",
    "load_items",
    "takes_function",
]
