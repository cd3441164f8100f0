"""Tool-name translation: names an API cannot carry go out as wire names and come back."""

from synsema.runtime.llm.names import MAX_LENGTH, ToolNames


def test_names_the_api_accepts_are_sent_unchanged():
    names = ToolNames(["get_weather", "add-2"])
    assert names.wire("get_weather") == "get_weather" and names.wire("add-2") == "add-2"


def test_dots_and_other_characters_become_underscores_and_come_back():
    names = ToolNames(["linalg.det", "números", "a b"])
    assert [names.wire(n) for n in ("linalg.det", "números", "a b")] == ["linalg_det", "n_meros", "a_b"]
    assert names.script("linalg_det") == "linalg.det"
    assert names.script("n_meros") == "números"


def test_a_clash_gets_a_suffix_and_a_name_already_valid_keeps_its_own():
    names = ToolNames(["x.y", "x_y", "x-y", "x:y"])
    assert names.wire("x_y") == "x_y"
    assert names.wire("x.y") == "x_y_2" and names.wire("x:y") == "x_y_3"
    assert {names.script(w) for w in ("x_y", "x_y_2", "x_y_3", "x-y")} == {"x_y", "x.y", "x:y", "x-y"}


def test_long_names_are_cut_to_the_limit_and_stay_unique():
    long_a = "a" * 70 + ".one"
    long_b = "a" * 70 + ".two"
    names = ToolNames([long_a, long_b])
    wires = [names.wire(long_a), names.wire(long_b)]
    assert all(len(w) <= MAX_LENGTH for w in wires) and wires[0] != wires[1]
    assert [names.script(w) for w in wires] == [long_a, long_b]


def test_unknown_names_from_the_model_pass_through():
    assert ToolNames(["a.b"]).script("rm_rf") == "rm_rf"
