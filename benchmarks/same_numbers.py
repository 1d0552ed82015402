"""Before/after check for refactors: run every verb of every game with a fixed seed and small
counts, write each JSON result to a folder, and compare two such folders.

    python benchmarks/same_numbers.py write DIR     # run every case, one JSON file per case
    python benchmarks/same_numbers.py diff OLD NEW  # name every case whose JSON differs
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

CASES = {
    "stm_simulate": "simulate shoot-the-moon -n 3000",
    "stm_simulate_6pp": "simulate shoot-the-moon -p 6 --partners -n 3000 -s greedy",
    "stm_simulate_games": "simulate shoot-the-moon --games 300",
    "stm_big_moon": "analyze shoot-the-moon big-moon-value -p 4 --games 300",
    "stm_hand_odds": "analyze shoot-the-moon hand-odds -n 3000",
    "stm_chip_value": "analyze shoot-the-moon chip-value --games 600",
    "stm_compare": "compare shoot-the-moon -s odd --vs greedy -n 2000",
    "stm_compare_games": "compare shoot-the-moon -s odd --vs random --games 200",
    "stm_whatif": "whatif shoot-the-moon -r stm.moon_chip_netting=sequential -n 3000",
    "stm_whatif_games": "whatif shoot-the-moon -r stm.target_chips=5 --games 200",
    "moon_simulate": "simulate moon -n 3000",
    "moon_simulate_4p": "simulate moon -p 4 -n 3000 -s greedy",
    "moon_simulate_games": "simulate moon --games 200",
    "moon_bid_success": "analyze moon bid-success -n 3000",
    "moon_widow": "analyze moon widow-value -n 3000",
    "moon_seat": "analyze moon seat-advantage -n 3000",
    "moon_game_odds": "analyze moon game-odds --games 100",
    "moon_hand": 'hand moon --hand "6-6 6-5 6-4 6-2 5-5 3-3 1-1" --samples 2000',
    "moon_compare": "compare moon -s threshold --vs greedy -n 2000",
    "moon_compare_games": "compare moon -s threshold --vs random --games 100",
    "moon_whatif": "whatif moon -r moon.min_bid=5 -n 3000",
    "moon_whatif_games": "whatif moon -r moon.min_bid=5 --games 100",
    "htd_simulate": "simulate hit-the-deck -n 3000",
    "htd_simulate_6p": "simulate hit-the-deck -p 6 -n 3000 -s tactician",
    "htd_simulate_games": "simulate hit-the-deck --games 200 --profile 2=child",
    "htd_hand": 'hand hit-the-deck --hand "R3 R5 G2 BCUT YFLIP HN3 HH" --samples 2000',
    "htd_compare": "compare hit-the-deck -s tactician --vs dump -n 2000",
    "htd_whatif": "whatif hit-the-deck -r htd.final_card_effects=resolve_then_score -n 3000",
}


def write(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    exe = Path(sys.executable).with_name("moonshot")
    for name, args in CASES.items():
        out = subprocess.run(f"{exe} {args} --seed 7 -f json -q", shell=True, capture_output=True, text=True)
        (folder / f"{name}.json").write_text(out.stdout if out.returncode == 0
                                             else f"ERROR {out.returncode}\n{out.stderr}")
        print(name, "ok" if out.returncode == 0 else "ERROR")


def diff(old: Path, new: Path) -> int:
    bad = 0
    for name in CASES:
        a, b = (old / f"{name}.json").read_text(), (new / f"{name}.json").read_text()
        if a != b:
            bad += 1
            print(f"{name}: differs")
            try:
                ja, jb = json.loads(a), json.loads(b)
                for key in sorted(set(ja["tables"]) | set(jb["tables"])):
                    if ja["tables"].get(key) != jb["tables"].get(key):
                        print(f"    table {key}")
                if ja["meta"] != jb["meta"]:
                    print("    meta")
                if ja["notes"] != jb["notes"]:
                    print("    notes")
            except Exception as exc:   # an error text on one side
                print("    ", str(exc)[:200])
    print(f"{len(CASES) - bad} same, {bad} different")
    return bad


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(Path(sys.argv[2]))
    else:
        sys.exit(1 if diff(Path(sys.argv[2]), Path(sys.argv[3])) else 0)
