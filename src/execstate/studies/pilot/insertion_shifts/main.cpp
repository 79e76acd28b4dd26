// Insertion sort: the inner loop shifts larger values one place right. Prints the number of
// shifts and the median of the sorted values.
#include <iostream>
#include <vector>

int main() {
    int n;
    std::cin >> n;
    std::vector<int> a(n);
    for (int i = 0; i < n; i++) {
        std::cin >> a[i];
    }
    long long shifts = 0;
    for (int i = 1; i < n; i++) {
        int key = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > key) {  // the selected loop: counted over every entry
            a[j + 1] = a[j];
            j--;
            shifts++;
        }
        a[j + 1] = key;
    }
    std::cout << shifts << " " << a[n / 2] << std::endl;
    return 0;
}
