"""A plug-in package outside execstate: one arm, one analysis section and one provider, declared through the
entry points of ``execstate_toy-0.1.dist-info/entry_points.txt`` beside it, as an installed package declares them
in its ``pyproject.toml``. ``tests/test_plugin_package.py`` puts this folder on ``PYTHONPATH`` and runs the
``execstate`` command through build, run, grade, analyze and report; no file of execstate names any of it.
"""
