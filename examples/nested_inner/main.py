import sys


def main():
    n = int(sys.stdin.readline())
    total = 0
    rows = []
    for i in range(n):
        row = 0
        for j in range(i):  # the selected loop: counted over every entry
            row += j * i
        total += row
        rows.append(row)
    print(total)
    print(rows[-3:])


main()
