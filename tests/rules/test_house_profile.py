"""A deal's rulebook is its profile with its house rules, built by one function."""

from __future__ import annotations

import pytest

from faro_box.errors import ProfileError
from faro_box.rules.faro import find_profile, house_profile


def test_a_house_profile_is_the_profile_with_the_deals_house_rules() -> None:
    assert house_profile("foster") is find_profile("foster")
    assert house_profile("french", {"turn_pays": 5}) == find_profile("french").with_rules({"turn_pays": 5})
    assert house_profile("french", {"turn_pays": 5}) != find_profile("french")


@pytest.mark.parametrize(("name", "rules", "words"), [
    ("whist", None, "unknown profile 'whist'"),
    ("foster", {"turn_pays": "x"}, "turn_pays"),
    ("foster", ["markers"], "house_rules must be an object"),
])
def test_a_bad_profile_or_rule_is_named(name: str, rules: object, words: str) -> None:
    with pytest.raises(ProfileError, match=words):
        house_profile(name, rules)  # type: ignore[arg-type]
