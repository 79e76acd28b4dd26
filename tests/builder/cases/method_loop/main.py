class Counter:
    def __init__(self, text):
        self.text = text

    def runs(self):
        """Lengths of maximal runs of equal characters."""
        out = []
        i = 0
        while i < len(self.text):
            j = i
            while j < len(self.text) and self.text[j] == self.text[i]:
                j += 1
            out.append(j - i)
            i = j
        return out


print(Counter(input()).runs())
