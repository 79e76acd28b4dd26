print(1002)
print("01" * 501)
