// The abelian sandpile: topple every cell holding four or more grains.
//
// Input: rows and columns, then the grid of grain counts. A cell with at least four grains topples:
// it loses four and each of its up to four neighbours gains one (grains pushed over the edge are
// lost). Output: the stable grid, the total number of topplings and the number of grains lost over
// the edge.
#include <iostream>
#include <string>
#include <utility>
#include <vector>

using Grid = std::vector<std::vector<long long>>;

// (topplings, grains lost over the edge).
std::pair<long long, long long> stabilize(Grid& grid) {
    long long rows = static_cast<long long>(grid.size()), cols = static_cast<long long>(grid[0].size());
    std::vector<std::pair<long long, long long>> pending;
    for (long long r = 0; r < rows; r++) {
        for (long long c = 0; c < cols; c++) {
            if (grid[r][c] >= 4) pending.emplace_back(r, c);
        }
    }
    long long topples = 0;
    long long lost = 0;
    while (!pending.empty()) {
        // A queued cell only gains grains until it is popped, so it still holds >= 4.
        auto [r, c] = pending.back();
        pending.pop_back();
        grid[r][c] -= 4;
        topples += 1;
        if (grid[r][c] >= 4) {
            pending.emplace_back(r, c);
        }
        const std::pair<long long, long long> neighbours[] = {{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}};
        for (const auto& [nr, nc] : neighbours) {
            if (0 <= nr && nr < rows && 0 <= nc && nc < cols) {
                grid[nr][nc] += 1;
                if (grid[nr][nc] == 4) {
                    pending.emplace_back(nr, nc);
                }
            } else {
                lost += 1;
            }
        }
    }
    return {topples, lost};
}

int main() {
    long long rows, cols;
    std::cin >> rows >> cols;
    Grid grid(rows, std::vector<long long>(cols));
    for (auto& row : grid) {
        for (long long& cell : row) {
            std::cin >> cell;
        }
    }
    auto [topples, lost] = stabilize(grid);
    for (const auto& row : grid) {
        std::string text;
        for (long long cell : row) {
            if (!text.empty()) text += ' ';
            text += std::to_string(cell);
        }
        std::cout << text << "\n";
    }
    std::cout << "topples " << topples << "\n";
    std::cout << "lost " << lost << "\n";
    return 0;
}
