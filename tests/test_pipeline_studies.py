"""Study facts live in the study entry: which studies the main job also builds fresh and as variants is a field of
``Study``, and the study registry (a ``Registry[Study]``) keeps the mapping API its callers use."""

from __future__ import annotations

import pytest

from execstate.pipeline import FRESH_STUDIES
from execstate.registry import RegistryMiss
from execstate.studies import (
    STUDIES,
    STUDY_REGISTRY,
    Study,
    builtin_studies,
    get_study,
    main_fresh_studies,
    main_variant_studies,
    register_study,
    unregister_study,
)
from execstate.testing.plugins import plugin_dist


def test_the_main_job_builds_classic_fresh_and_as_variants_because_its_entry_says_so():
    assert FRESH_STUDIES == ("classic", "classic_cpp") == tuple(main_fresh_studies())  # the twins on fresh inputs too
    assert main_variant_studies() == ["classic"]
    assert [n for n, s in STUDIES.items() if s.main_fresh or s.main_variants] == ["classic", "classic_cpp"]


def test_a_registered_study_joins_the_main_job_lists_and_leaves_them():
    toy = Study("toy_study", ("python",), "bytes", "a planted study", main_fresh=True)
    register_study(toy)
    try:
        assert STUDIES["toy_study"] is toy and STUDIES.get("toy_study") is toy and "toy_study" in STUDIES
        assert list(STUDIES)[-1] == "toy_study" and len(STUDIES) == len(STUDY_REGISTRY)
        assert main_fresh_studies() == ["classic", "classic_cpp", "toy_study"]
        assert main_variant_studies() == ["classic"]
        assert "toy_study" not in builtin_studies()  # it ships no cases
        assert get_study("toy_study") is toy
    finally:
        unregister_study("toy_study")
    assert "toy_study" not in STUDIES and main_fresh_studies() == ["classic", "classic_cpp"]


def test_the_mapping_answers_like_the_dict_it_replaced():
    assert STUDIES.get("a_users_own_study") is None
    with pytest.raises(KeyError):
        STUDIES["a_users_own_study"]
    assert list(STUDIES)[:2] == ["classic", "cruxeval"]  # declaration order
    with pytest.raises(RegistryMiss, match="unknown study 'clasic'; did you mean 'classic'"):
        STUDY_REGISTRY.get("clasic")


def test_a_study_entry_must_be_a_study():
    with pytest.raises(Exception, match="not a Study"):
        STUDY_REGISTRY.register("odd", "not a study")  # type: ignore[arg-type]
    assert "odd" not in STUDIES


def test_a_study_from_an_entry_point_is_found(tmp_path, monkeypatch):
    (tmp_path / "toy_study_plugin.py").write_text(
        "from execstate.studies import Study\n"
        'TOY = Study("toy_plugin_study", ("python",), "bytes", "from a package", main_variants=True)\n',
        encoding="utf-8",
    )
    plugin_dist(tmp_path, "toy-study-plugin", {"execstate.studies": {"toy_plugin_study": "toy_study_plugin:TOY"}})
    monkeypatch.syspath_prepend(str(tmp_path))
    STUDY_REGISTRY.refresh()
    try:
        assert get_study("toy_plugin_study").description == "from a package"
        assert main_variant_studies() == ["classic", "toy_plugin_study"]
    finally:
        monkeypatch.undo()
        STUDY_REGISTRY.refresh()
    assert "toy_plugin_study" not in STUDIES
