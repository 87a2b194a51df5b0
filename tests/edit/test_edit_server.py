"""`pnp edit`'s API without a browser (Starlette's TestClient): only the page's own writes are taken
(its token, same origin, local Host), and no path outside the deck's templates is read or written."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

PORT = 8766
BASE = f"http://127.0.0.1:{PORT}"
OWN = {"Origin": BASE, "Sec-Fetch-Site": "same-origin"}


def _deck(tmp_path: Path) -> Path:
    folder = tmp_path / "deck"
    subprocess.run([sys.executable, "-m", "pnp", "new", str(folder), "-q"], check=True)
    return folder


@pytest.fixture()
def served(tmp_path):
    from starlette.testclient import TestClient

    from pnp.edit.server import Editor, make_app
    folder = _deck(tmp_path)
    editor = Editor(folder / "deck.yaml")
    (tmp_path / "secret.yaml").write_text("layers: []  # SENTINEL-51c2\n", encoding="utf-8")
    return folder, editor, TestClient(make_app(editor, PORT), base_url=BASE, raise_server_exceptions=False)


def _move(index=1, x=6, file="front.yaml"):
    return {"op": "set", "file": file, "index": index, "fields": {"x": x}}


def test_a_write_needs_the_token_and_the_pages_origin(served):
    folder, editor, client = served
    front = folder / "front.yaml"
    before = front.read_bytes()
    token = {"X-PNP-Token": editor.token}
    refused = [
        {**OWN},                                                        # no token
        {**OWN, "X-PNP-Token": "not-the-token"},                        # another token
        {**token, "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
        {**token, "Origin": f"http://localhost:{PORT + 1}"},            # another local page
        {**token, "Sec-Fetch-Site": "cross-site"},                      # no Origin, another site
        {**token},                                                      # neither: not from a browser page
    ]
    for headers in refused:
        r = client.post("/api/edit", json=_move(), headers=headers)
        assert r.status_code == 403, (headers, r.status_code, r.text)
        assert front.read_bytes() == before, headers
    r = client.post("/api/edit", content=b'{"op": "set"}', headers={**token, **OWN, "Content-Type": "text/plain"})
    assert r.status_code == 403 and front.read_bytes() == before  # a form-like post
    for host in ("evil.example", f"evil.example:{PORT}", f"127.0.0.1:{PORT + 1}"):
        r = client.post("/api/edit", json=_move(), headers={**token, **OWN, "Host": host})
        assert r.status_code == 400 and front.read_bytes() == before
        assert client.get("/", headers={"Host": host}).status_code == 400
        assert editor.token not in client.get("/", headers={"Host": host}).text
    assert client.post("/api/undo", headers={**OWN}).status_code == 403

    r = client.post("/api/edit", json=_move(), headers={**token, **OWN})
    assert r.status_code == 200, r.text
    assert yaml.safe_load(front.read_text())["layers"][1]["x"] == 6
    assert "# The card front" in front.read_text()
    assert editor.token in client.get("/").text  # the page carries it


def test_each_start_has_a_new_token(tmp_path):
    from pnp.edit.server import Editor
    folder = _deck(tmp_path)
    assert Editor(folder / "deck.yaml").token != Editor(folder / "deck.yaml").token


def test_no_path_outside_the_decks_templates_is_written(served, tmp_path):
    folder, editor, client = served
    headers = {"X-PNP-Token": editor.token, **OWN}
    secret = tmp_path / "secret.yaml"
    (tmp_path / "outside").mkdir()
    (folder / "link.yaml").symlink_to(secret)
    (folder / "sub").symlink_to(tmp_path / "outside", target_is_directory=True)
    (tmp_path / "outside" / "x.yaml").write_text("layers: []  # SENTINEL-51c2\n", encoding="utf-8")
    os.mkfifo(folder / "fifo.yaml")
    (folder / "other.yaml").write_text("layers: [{type: rect}]\n", encoding="utf-8")
    files = {p: p.read_bytes() for p in (secret, tmp_path / "outside" / "x.yaml", folder / "deck.yaml",
                                         folder / "cards.csv", folder / "other.yaml", folder / "front.yaml")}
    hostile = ["../secret.yaml", str(secret), "/etc/passwd.yaml", "link.yaml", "sub/x.yaml", "fifo.yaml",
               "deck.yaml", "cards.csv", "other.yaml", "front.yaml/../../secret.yaml", "~/secret.yaml",
               "front.yaml\x00", "shared/card-back.yaml", "..\\secret.yaml", "", None, 7]
    for name in hostile:
        for op in (_move(file=name), {"op": "delete", "file": name, "index": 0},
                   {"op": "add", "file": name, "at": 0, "layer": {"type": "rect"}}):
            r = client.post("/api/edit", json=op, headers=headers)
            assert r.status_code == 400, (name, op["op"], r.status_code, r.text)
            assert "SENTINEL" not in r.text and r.json()["error"].startswith("error: "), name
    for name in ("../secret.yaml", str(secret), "../../x.yaml"):
        r = client.post("/api/edit", json={"op": "copy", "file": name}, headers=headers)
        assert r.status_code == 400 and "SENTINEL" not in r.text, name
    for path, data in files.items():
        assert path.read_bytes() == data, path
    assert not (folder / "shared").exists()
    # a template of the deck replaced by a link leading out is not written through either
    (folder / "front.yaml").unlink()
    (folder / "front.yaml").symlink_to(secret)
    r = client.post("/api/edit", json=_move(), headers=headers)
    assert r.status_code == 400 and secret.read_bytes() == files[secret]
    for path in ("/static/../secret.yaml", "/static/editor.html", "/static/%2e%2e/secret.yaml"):
        assert "SENTINEL" not in client.get(path).text


def test_a_bad_value_is_refused_naming_the_field_and_nothing_is_written(served):
    folder, editor, client = served
    headers = {"X-PNP-Token": editor.token, **OWN}
    front = folder / "front.yaml"
    before = front.read_bytes()
    for fields, field in (({"size": 9000}, "size"), ({"fit": "squeeze"}, "fit"), ({"x": "12 parsecs"}, "x"),
                          ({"type": "circle"}, "type")):
        r = client.post("/api/edit", json={"op": "set", "file": "front.yaml", "index": 1, "fields": fields},
                        headers=headers)
        assert r.status_code == 400 and field in r.json()["error"], (fields, r.text)
        assert front.read_bytes() == before
    # a text box moved past the part, a placeholder naming no column: refused as a build would, file restored
    for fields, said in (({"x": 20}, "reaches past the"), ({"text": "{nme}"}, "no column 'nme'")):
        r = client.post("/api/edit", json={"op": "set", "file": "front.yaml", "index": 1, "fields": fields},
                        headers=headers)
        assert r.status_code == 400 and said in r.json()["error"], (fields, r.text)
        assert front.read_bytes() == before
    assert not editor.session.done


def test_a_shared_layer_is_copied_into_the_folder_before_it_is_edited(served):
    folder, editor, client = served
    headers = {"X-PNP-Token": editor.token, **OWN}
    card = client.get("/api/card?component=0&side=back&row=0").json()
    shared = [ly for ly in card["layers"] if ly["source"] == "shared"]
    assert shared and all(ly["file"] == "shared/card-back.yaml" for ly in shared)
    r = client.post("/api/edit", json=_move(index=0, file="shared/card-back.yaml"), headers=headers)
    assert r.status_code == 400 and "copy it into the game folder" in r.json()["error"]
    r = client.post("/api/edit", json={"op": "copy", "file": "shared/card-back.yaml"}, headers=headers)
    assert r.status_code == 200, r.text
    copy = folder / "shared" / "card-back.yaml"
    assert copy.is_file()
    card = client.get("/api/card?component=0&side=back&row=0").json()
    assert {ly["source"] for ly in card["layers"]} == {"folder"}
    before = copy.read_text()
    r = client.post("/api/edit", json={"op": "set", "file": "shared/card-back.yaml", "index": 0,
                                       "fields": {"fill": "#123456"}}, headers=headers)
    assert r.status_code == 200, r.text
    assert yaml.safe_load(copy.read_text())["layers"][0]["fill"] == "#123456"
    assert [ln for ln in before.splitlines() if ln.startswith("#")] == \
           [ln for ln in copy.read_text().splitlines() if ln.startswith("#")]


def test_undo_and_redo_step_through_the_edits(served):
    folder, editor, client = served
    headers = {"X-PNP-Token": editor.token, **OWN}
    front = folder / "front.yaml"
    first = front.read_text()
    client.post("/api/edit", json=_move(x=5), headers=headers)
    second = front.read_text()
    client.post("/api/edit", json={"op": "add", "file": "front.yaml", "at": 4,
                                   "layer": {"type": "rect", "x": 5, "y": 5, "w": 5, "h": 5}}, headers=headers)
    assert len(yaml.safe_load(front.read_text())["layers"]) == 5
    assert client.post("/api/undo", json={}, headers=headers).json()["done"]
    assert front.read_text() == second
    assert client.post("/api/undo", json={}, headers=headers).json()["done"]
    assert front.read_text() == first
    assert client.post("/api/undo", json={}, headers=headers).json()["done"] == ""
    client.post("/api/redo", json={}, headers=headers)
    assert front.read_text() == second
    front.write_text(second.replace("# The card front", "# edited by hand"))  # a change made elsewhere
    r = client.post("/api/undo", json={}, headers=headers)
    assert r.status_code == 400 and "changed outside the editor" in r.json()["error"]
    assert "# edited by hand" in front.read_text()
