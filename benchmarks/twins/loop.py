"""Twin of the benchmark's counting loop (pseudo: i := 0; s := 0; ПОКА i < 100000
ВЫПОЛНЯТЬ i := i + 1; s := s + i ВЕРНУТЬСЯ; СООБЩИТЬ s): the same while loop on two
local integers, then the sum printed on one line.
"""


def main():
    i = s = 0
    while i < 100000:
        i += 1
        s += i
    print(s)


main()
