"""What a Sahwari view shows (spec §13, rules H1-H3): blue faces only to the
seats that saw them, used tokens to everyone, everything at the end."""

from __future__ import annotations

import json
from dataclasses import replace

from games.sahwari.clan import new_clan
from games.sahwari.state import new_state, with_leaders
from games.sahwari.views import build_view

LEADERS = ("spy", "merchant", "explorer")


def blue_ids(text: str) -> set[str]:
    return {f"B{n:02}" for n in range(1, 15) if f"B{n:02}" in text}


def test_h2_no_blue_face_in_a_public_view_at_setup() -> None:
    s = with_leaders(new_state(3, seed=5), LEADERS)
    view = build_view(s, None)
    assert not blue_ids(json.dumps(view.items)) and not blue_ids(json.dumps(view.faces))
    handles = [i for items in view.items for i in items if i.startswith("V")]
    assert handles == [f"V{n}" for n in range(1, len(handles) + 1)]
    assert all(handle == token for handle, token in view.faces)  # yellow tokens only


def test_h3_a_seat_sees_the_faces_it_knows_and_no_other() -> None:
    s = with_leaders(new_state(3, seed=5), LEADERS)
    spied = s.table.handles[2]
    s = replace(s, known=((spied, (1,)),))
    assert ("V3", spied) in build_view(s, 1).faces
    assert ("V3", spied) not in build_view(s, 0).faces
    assert ("V3", spied) not in build_view(s, None).faces


def test_h1_used_tokens_are_public_and_owned_ones_show_their_handle() -> None:
    s = with_leaders(new_state(3, seed=5), LEADERS)
    kept, used = s.table.handles[0], s.table.handles[1]
    zone = replace(new_clan("spy"), convoys=(kept, used, "Y05"), used=(used,))
    s = replace(s, clans=(zone, *s.clans[1:]), known=((kept, (0,)), (used, (0,))))
    for viewer in (None, 1, 2):
        view = build_view(s, viewer)
        assert view.clans[0].convoys == ("V1", "V2", "Y05")
        assert view.clans[0].used == ("V2",)
        faces = dict(view.faces)
        assert faces["V2"] == used and "V1" not in faces and faces["Y05"] == "Y05"
    assert dict(build_view(s, 0).faces)["V1"] == kept


def test_e6_everything_is_shown_at_the_end_with_scores_and_winners() -> None:
    s = with_leaders(new_state(2, seed=8), ("spy", "merchant"))
    s = replace(s, over=True, stack=())
    view = build_view(s, None)
    assert set(dict(view.faces).values()) >= set(s.table.handles)
    assert view.scores is not None and len(view.scores) == 2
    assert view.winners == ()  # equal scores and equal tie-breaks: nobody wins (D35)
    assert view.prompt == "" and view.prompt_seat is None


def test_during_setup_clans_show_the_leaders_chosen_so_far() -> None:
    s = new_state(3, seed=1)
    view = build_view(s, None)
    assert [c.leader for c in view.clans] == ["", "", ""]
    assert view.prompt == "leader" and view.prompt_seat == 2  # the last seat chooses first
