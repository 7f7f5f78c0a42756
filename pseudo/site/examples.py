"""The standard input each book program of programs/ is shown with: the playground puts it in
its input box, and the tests run the programs with it. The games are played in the page."""

EXAMPLE_INPUTS = {
    "signed_sum_iterative": "6\n3 5 7 2 8 1\n4\n",
    "signed_sum_recursive": "6\n3 5 7 2 8 1\n4\n",
    "knight_tour": "8 1 1 1\n",
    "northcott": "3 8\n1 8\n2 5\n1 3\n0\n" + "1 1\n2 1\n3 1\n1 2\n2 2\n3 2\n" * 10,
    "sim": "1\n" + "".join(f"{a} {b}\n" for a in range(1, 6) for b in range(a + 1, 7)),
    "pentomino": "3 20 0\n",
    "peg_solitaire": "0\n",
    "nim": "3 4 5 6 1\n" + "1 1\n2 1\n3 1\n4 1\n" * 12,  # the player tries each heap in turn
}
"""Program stem → its standard input (fox_capture reads programs/fox_capture.txt)."""

TYPED = {"nim", "northcott", "sim"}
"""The games: the page leaves their input box empty, so that the program asks and the pupil
answers move by move (their EXAMPLE_INPUTS are whole games, for the tests)."""
