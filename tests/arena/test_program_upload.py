"""People upload Botzone programs: queued by the web request and built by a worker in the sandbox per language, a
failed build shown to its author, a built one playing the ladder, quotas per person, and staff's switch that stops
a program at once."""

from __future__ import annotations

import io
import shutil
import stat
import zipfile
from datetime import timedelta
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from django.core.files.uploadedfile import SimpleUploadedFile
from django_tasks_db.models import DBTaskResult

from arena.models import Agent, Attempt, Match, ProgramBuild
from arena.record import uploads
from arena.record.errors import ServiceError
from arena.record.services import match_create
from arena.record.uploads import MAX_UPLOADED_PROGRAMS, program_build_finish, program_build_queue, upload_allowed
from arena.runner.loop import run_match
from arena.runner.tasks import build_program_task
from arena.tournaments.run import run_tournament
from arena.tournaments.services import tournament_create
from tests.sampled import sampled

pytestmark = pytest.mark.django_db

HAS_CPP = bool(shutil.which("g++")) and Path("/usr/include/jsoncpp/json/json.h").exists()
HAS_JAVA = bool(shutil.which("javac")) and bool(shutil.which("jar"))

#: Botzone's tic-tac-toe in C++ with JsonCpp included as Botzone has it: the first empty cell.
CPP_TICTACTOE = r"""
#include <iostream>
#include <string>
#include "jsoncpp/json.h"
using namespace std;
int main() {
    string line;
    getline(cin, line);
    Json::Reader reader;
    Json::Value input, output;
    reader.parse(line, input);
    int board[3][3] = {{0}};
    for (const auto& r : input["requests"]) if (r["x"].asInt() >= 0) board[r["y"].asInt()][r["x"].asInt()] = 1;
    for (const auto& r : input["responses"]) board[r["y"].asInt()][r["x"].asInt()] = 2;
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 3; x++)
            if (!board[y][x]) {
                output["response"]["x"] = x;
                output["response"]["y"] = y;
                Json::FastWriter writer;
                cout << writer.write(output);
                return 0;
            }
}
"""

PYTHON_NUMPY_TICTACTOE = r"""
import json, numpy
turn = json.loads(input())
board = numpy.zeros((3, 3), dtype=int)
for r in turn["requests"] + turn["responses"]:
    if r["x"] >= 0:
        board[r["y"], r["x"]] = 1
y, x = map(int, numpy.argwhere(board == 0)[0])
print(json.dumps({"response": {"x": x, "y": y}}))
"""

JAVA_TICTACTOE = r"""
import java.util.Scanner;
public class Main {
    public static void main(String[] args) {
        String line = new Scanner(System.in).nextLine();
        boolean[] taken = new boolean[9];
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"x\": (-?\\d+), \"y\": (-?\\d+)").matcher(line);
        while (m.find()) {
            int x = Integer.parseInt(m.group(1)), y = Integer.parseInt(m.group(2));
            if (x >= 0) taken[3 * y + x] = true;
        }
        for (int i = 0; i < 9; i++)
            if (!taken[i]) {
                System.out.println("{\"response\": {\"x\": " + i % 3 + ", \"y\": " + i / 3 + "}}");
                return;
            }
    }
}
"""


def upload(client, slug: str, language: str, source: str | bytes, filename: str = "bot.txt"):
    """Upload as a person does, let the worker's task build it, and answer the build's page as it then shows."""
    fields = {"slug": slug, "name": slug, "language": language, "protocol": "botzone"}
    content = source.encode() if isinstance(source, str) else source
    answer = client.post("/agents/upload/", {**fields, "source": SimpleUploadedFile(filename, content)})
    assert answer.status_code == 302, answer.content.decode()[-2000:]
    queued = ProgramBuild.objects.get(wanted__slug=slug)
    assert answer.url == f"/agents/upload/{queued.pk}/"
    async_to_sync(build_program_task.acall)(queued.pk)
    return client.get(answer.url)


@pytest.fixture
def author(client, django_user_model):
    user = django_user_model.objects.create_user("ann", password="pw")
    client.force_login(user)
    return user


def test_the_upload_only_queues_the_build_and_the_worker_shows_the_compiler_to_its_author(client, author):
    source = SimpleUploadedFile("main.c", b"int main(void) { return 0 }\n")
    fields = {"slug": "broken", "name": "broken", "language": "c", "protocol": "botzone", "source": source}
    answer = client.post("/agents/upload/", fields)
    assert answer.status_code == 302
    queued = ProgramBuild.objects.get(owner=author)
    # The request ran no compiler: nothing built, no messages, and a task waiting for the worker.
    assert (queued.built_at, queued.artifact, queued.log, queued.agent) == (None, b"", "", None)
    waiting = DBTaskResult.objects.get(task_path=build_program_task.module_path)
    assert (waiting.status, waiting.args_kwargs["args"]) == ("READY", [queued.pk])
    building = client.get(answer.url).content.decode()
    assert "building…" in building
    assert f'hx-get="/agents/upload/{queued.pk}/"' in building

    assert async_to_sync(build_program_task.acall)(queued.pk) == "failed"
    page = client.get(answer.url, headers={"HX-Request": "true"}).content.decode()
    assert "The build failed" in page
    assert "expected" in page  # gcc's "expected ';' before '}' token", as the author would see it
    assert "hx-get" not in page  # done: the page stops polling
    assert not Agent.objects.filter(slug="broken").exists()
    queued.refresh_from_db()
    assert (queued.ok, queued.artifact, queued.language) == (False, b"", "c")
    assert "error" in queued.log


def test_only_its_author_sees_a_build_one_build_at_a_time_and_a_lost_one_says_so(client, author, django_user_model):
    assert client.post("/agents/upload/", {
        "slug": "first", "name": "first", "language": "python", "protocol": "botzone",
        "source": SimpleUploadedFile("main.py", PYTHON_NUMPY_TICTACTOE.encode()),
    }).status_code == 302  # fmt: skip
    queued = ProgramBuild.objects.get(owner=author)
    with pytest.raises(ServiceError, match="still building"):
        program_build_queue(
            owner=author, language="c", source="", slug="second", name="s", protocol="botzone", keep_running=False
        )
    # A build no worker finished in its time is lost: its page says so, and it holds its author up no more.
    ProgramBuild.objects.filter(pk=queued.pk).update(
        created_at=queued.created_at - timedelta(seconds=uploads.BUILD_LOST_AFTER_S + 1)
    )
    page = client.get(f"/agents/upload/{queued.pk}/").content.decode()
    assert "The build was lost" in page
    assert "hx-get" not in page
    program_build_queue(
        owner=author, language="c", source="", slug="second", name="s", protocol="botzone", keep_running=False
    )
    client.force_login(django_user_model.objects.create_user("bob", password="pw"))
    assert client.get(f"/agents/upload/{queued.pk}/").status_code == 404


def test_a_slug_taken_while_building_keeps_the_build_and_says_so(client, author):
    queued = program_build_queue(
        owner=author, language="python", source="", slug="taken", name="t", protocol="botzone", keep_running=False
    )
    from arena.record.agents import agent_create

    agent_create(slug="taken", name="t", kind="program", config={"command": "/bin/true"})
    finished = program_build_finish(build=queued, artifact=b"print()", digest="e" * 64, log="")
    assert (finished.ok, finished.agent) == (True, None)
    assert "Built, but no agent was made: An agent called 'taken' already exists." in finished.log
    assert "Built, but not saved" in client.get(f"/agents/upload/{queued.pk}/").content.decode()


@pytest.mark.slow
@pytest.mark.skipif(not HAS_CPP, reason="needs g++ and libjsoncpp-dev (.ci/run installs them)")
def test_a_cpp_upload_with_jsoncpp_climbs_the_ladder_and_its_page_shows_its_games(client, author, ttt_bots):
    assert "is in your lobby now" in upload(client, "my-cpp", "cpp", CPP_TICTACTOE, "main.cpp").content.decode()
    agent = Agent.objects.get(slug="my-cpp")
    assert (agent.kind, agent.owner, agent.approved) == (Agent.Kind.PROGRAM, author, False)
    assert agent.current_version().config["language"] == "cpp"
    climb = tournament_create(slug="cpp-climb", name="c", format="ladder", games=["tic-tac-toe"], agents=[agent])
    async_to_sync(run_tournament)(climb.pk)
    matches = Match.objects.filter(tournament=climb)
    assert matches.exists()
    assert set(matches.values_list("status", flat=True)) == {Match.Status.FINISHED}
    ours = [
        a
        for a in Attempt.objects.filter(match__tournament=climb)
        if a.match.seats.get(index=a.seat).agent_version.agent_id == agent.pk
    ]
    assert ours
    assert {a.verdict for a in ours} == {"ok"}
    page = client.get(f"/agents/{agent.slug}/").content.decode()
    assert f"/matches/{matches.first().pk}/" in page


def play_random(agent: Agent, ttt_bots) -> Match:
    match = match_create(game="tic-tac-toe", agents=[agent, ttt_bots["tic-tac-toe-lv0"]], seed=4)
    async_to_sync(run_match)(match.pk)
    match.refresh_from_db()
    return match


@pytest.mark.parametrize(
    ("language", "source", "available"),
    [("python", PYTHON_NUMPY_TICTACTOE, True), ("java", JAVA_TICTACTOE, HAS_JAVA)],
    ids=["python-numpy", "java"],
)
def test_python_with_numpy_and_java_uploads_play(client, author, ttt_bots, language, source, available):
    if not available:
        pytest.skip(f"no {language} toolchain here")
    page = upload(client, f"my-{language}", language, source).content.decode()
    assert "is in your lobby now" in page, page[-2000:]
    match = play_random(Agent.objects.get(slug=f"my-{language}"), ttt_bots)
    verdicts = set(Attempt.objects.filter(match=match, seat=0).values_list("verdict", flat=True))
    assert verdicts == {"ok"}, list(Attempt.objects.filter(match=match, seat=0).values_list("message", "raw_text"))[:1]


def test_staff_disabling_a_program_stops_it_at_once(client, author, ttt_bots):
    upload(client, "stoppable", "python", PYTHON_NUMPY_TICTACTOE)
    agent = Agent.objects.get(slug="stoppable")
    Agent.objects.filter(pk=agent.pk).update(is_active=False)
    match = play_random(agent, ttt_bots)
    attempts = Attempt.objects.filter(match=match, seat=0)
    assert attempts.exists()
    assert {a.message for a in attempts} == {"Staff disabled this program; it plays no more moves."}


def test_quotas_refuse_more_programs_than_a_person_may_have(author):
    from arena.record.agents import agent_create

    for number in range(MAX_UPLOADED_PROGRAMS):
        agent_create(slug=f"p{number}", name="p", kind="program", config={"command": "/bin/true"}, owner=author)
    with pytest.raises(ServiceError, match=f"At most {MAX_UPLOADED_PROGRAMS} uploaded programs"):
        upload_allowed(owner=author, slug="one-more")
    with pytest.raises(ServiceError, match="already exists"):
        upload_allowed(owner=author, slug="p0")


def test_a_persons_uploaded_programs_play_at_most_their_matches_a_day(author, ttt_bots, monkeypatch):
    monkeypatch.setattr(uploads, "MAX_UPLOADED_MATCHES_PER_DAY", 2)
    source = PYTHON_NUMPY_TICTACTOE
    queued = program_build_queue(
        owner=author,
        language="python",
        source=source,
        slug="daily",
        name="daily",
        protocol="botzone",
        keep_running=False,
    )
    mine = program_build_finish(build=queued, artifact=source.encode(), digest="d" * 64, log="").agent
    for seed in (1, 2):
        match_create(game="tic-tac-toe", agents=[mine, ttt_bots["tic-tac-toe-lv0"]], seed=seed)
    with pytest.raises(ServiceError, match="played 2 matches in the last day"):
        match_create(game="tic-tac-toe", agents=[ttt_bots["tic-tac-toe-lv1"], mine], seed=3)
    match_create(game="tic-tac-toe", agents=[ttt_bots["tic-tac-toe-lv0"], ttt_bots["tic-tac-toe-lv1"]], seed=3)


def test_the_agents_page_offers_the_upload_to_people_signed_in(client, author):
    assert 'href="/agents/upload/"' in client.get("/agents/").content.decode()
    assert client.get("/agents/upload/").status_code == 200
    client.logout()
    assert client.get("/agents/upload/").status_code == 302  # to the sign-in page


def zipped(files: dict[str, str], *, links: tuple[str, ...] = ()) -> bytes:
    """A zip archive of `files` (name: text), with `links` as symbolic links."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text)
        for name in links:
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, "/etc/passwd")
    return out.getvalue()


#: Each language's bot split over several files, in a folder as people zip them: the first empty cell, found by a
#: function in a second file.
SPLIT_BOTS = {
    "cpp": {
        "bot/main.cpp": '#include <iostream>\n#include "jsoncpp/json.h"\n#include "cells.h"\n'
        "int main() { std::string line; std::getline(std::cin, line); Json::Reader r; Json::Value in, out;"
        " r.parse(line, in); int taken[9] = {0};"
        ' for (auto& t : in["requests"]) if (t["x"].asInt() >= 0) taken[3 * t["y"].asInt() + t["x"].asInt()] = 1;'
        ' for (auto& t : in["responses"]) taken[3 * t["y"].asInt() + t["x"].asInt()] = 1;'
        ' int c = first_empty(taken); out["response"]["x"] = c % 3; out["response"]["y"] = c / 3;'
        " Json::FastWriter w; std::cout << w.write(out); }\n",
        "bot/cells.h": "int first_empty(const int* taken);\n",
        "bot/lib/cells.cpp": '#include "../cells.h"\nint first_empty(const int* taken) {'
        " for (int i = 0; i < 9; i++) if (!taken[i]) return i; return -1; }\n",
    },
    "python": {
        "__MACOSX/._main.py": "",
        "main.py": "import json\nfrom cells import first_empty\nturn = json.loads(input())\n"
        'taken = {(r["x"], r["y"]) for r in turn["requests"] + turn["responses"]}\n'
        "x, y = first_empty(taken)\n"
        'print(json.dumps({"response": {"x": x, "y": y}}))\n',
        "cells.py": "def first_empty(taken):\n"
        "    return next((x, y) for y in range(3) for x in range(3) if (x, y) not in taken)\n",
    },
    "java": {
        "Main.java": "public class Main { public static void main(String[] a) {"
        " String line = new java.util.Scanner(System.in).nextLine(); int c = Cells.firstEmpty(line);"
        ' System.out.println("{\\"response\\": {\\"x\\": " + c % 3 + ", \\"y\\": " + c / 3 + "}}"); } }\n',
        "util/Cells.java": "public class Cells { static int firstEmpty(String line) { boolean[] taken = new boolean[9];"
        ' java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\"x\\": (-?\\\\d+), \\"y\\": (-?\\\\d+)")'
        ".matcher(line); while (m.find()) { int x = Integer.parseInt(m.group(1)), y = Integer.parseInt(m.group(2));"
        " if (x >= 0) taken[3 * y + x] = true; } for (int i = 0; i < 9; i++) if (!taken[i]) return i; return -1; } }\n",
    },
}


@pytest.mark.parametrize("language", sampled(sorted(SPLIT_BOTS), {"python"}))
def test_a_zip_of_several_files_builds_and_plays(client, author, ttt_bots, language):
    if (language == "cpp" and not HAS_CPP) or (language == "java" and not HAS_JAVA):
        pytest.skip(f"no {language} toolchain here")
    page = upload(client, f"zip-{language}", language, zipped(SPLIT_BOTS[language]), "bot.zip").content.decode()
    assert "is in your lobby now" in page, page[-2000:]
    queued = ProgramBuild.objects.get(wanted__slug=f"zip-{language}")
    assert (queued.source, bytes(queued.archive)[:2]) == ("", b"PK")
    match = play_random(Agent.objects.get(slug=f"zip-{language}"), ttt_bots)
    attempts = Attempt.objects.filter(match=match, seat=0)
    assert set(attempts.values_list("verdict", flat=True)) == {"ok"}, list(attempts.values_list("message"))[:1]
    assert match.status == Match.Status.FINISHED


@pytest.mark.parametrize(
    ("language", "archive", "refusal"),
    [
        ("python", zipped({"main.py": "print()", "../escape.py": ""}), "would be unpacked outside"),
        ("python", zipped({"/etc/cron.d/x": "", "main.py": ""}), "would be unpacked outside"),
        ("python", zipped({"main.py": ""}, links=("cells.py",)), "is a link or a device"),
        ("python", zipped({"helper.py": ""}), "holds no main.py at its top"),
        ("java", zipped({"src/Main.java": "", "Other.java": ""}), "holds no Main.java at its top"),
        ("cpp", zipped({"main.c": ""}), "holds no .cpp file"),
        ("c", zipped({f"f{n}.c": "" for n in range(201)}), "holds 201 files; at most 200"),
        ("c", zipped({"main.c": " " * 8_000_001}), "unpacks to 8,000,001 bytes; at most 8,000,000"),
        ("c", b"PK\x03\x04 not a zip at all", "neither UTF-8 source text nor a zip archive"),
    ],
    ids=["dot-dot", "absolute", "symlink", "no-main-py", "main-java-not-at-top", "no-cpp", "files", "unpacked", "bad"],
)
def test_an_archive_that_cannot_be_built_safely_is_refused_before_anything_is_queued(
    client, author, language, archive, refusal
):
    fields = {"slug": "zipped", "name": "zipped", "language": language, "protocol": "botzone"}
    answer = client.post("/agents/upload/", {**fields, "source": SimpleUploadedFile("bot.zip", archive)})
    assert answer.status_code == 200
    assert refusal in answer.content.decode()
    assert not ProgramBuild.objects.exists()
    assert not DBTaskResult.objects.exists()
