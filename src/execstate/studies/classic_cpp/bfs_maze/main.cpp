// Breadth-first search through a grid maze.
//
// Input: rows and columns, then the grid: '#' is a wall, '.' open floor, 'S' the start and 'T' the
// target. Moves go up, down, left and right. Output: the length of a shortest path from S to T (-1
// if T is unreachable), the number of cells reachable from S, and the largest distance from S to
// any of them.
#include <cstddef>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

using Cell = std::pair<long long, long long>;

const Cell MOVES[] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};

Cell find(const std::vector<std::string>& grid, char mark) {
    for (std::size_t r = 0; r < grid.size(); r++) {
        std::size_t c = grid[r].find(mark);
        if (c != std::string::npos) {
            return {static_cast<long long>(r), static_cast<long long>(c)};
        }
    }
    std::cerr << "no '" << mark << "' in the maze\n";
    std::exit(1);
}

struct Explored {
    std::vector<std::vector<long long>> dist;  // -1: not reached
    long long reached, farthest;
};

// Distances from `start` to every reachable open cell.
Explored explore(const std::vector<std::string>& grid, Cell start) {
    long long rows = static_cast<long long>(grid.size()), cols = static_cast<long long>(grid[0].size());
    std::vector<std::vector<long long>> dist(rows, std::vector<long long>(cols, -1));
    dist[start.first][start.second] = 0;
    std::deque<Cell> queue = {start};
    long long reached = 0;
    long long farthest = 0;
    while (!queue.empty()) {
        auto [r, c] = queue.front();
        queue.pop_front();
        reached += 1;
        farthest = dist[r][c];
        for (const auto& [dr, dc] : MOVES) {
            long long nr = r + dr, nc = c + dc;
            if (0 <= nr && nr < rows && 0 <= nc && nc < cols && grid[nr][nc] != '#' && dist[nr][nc] < 0) {
                dist[nr][nc] = farthest + 1;
                queue.emplace_back(nr, nc);
            }
        }
    }
    return {dist, reached, farthest};
}

int main() {
    std::size_t rows, cols;
    std::cin >> rows >> cols;
    std::vector<std::string> grid;
    std::string row;
    while (grid.size() < rows && std::cin >> row) {
        grid.push_back(row);
    }
    bool ragged = grid.size() != rows;
    for (const std::string& line : grid) {
        ragged = ragged || line.size() != cols;
    }
    if (ragged) {
        std::cerr << "expected " << rows << " rows of " << cols << " cells\n";
        return 1;
    }
    Explored maze = explore(grid, find(grid, 'S'));
    Cell target = find(grid, 'T');
    std::cout << maze.dist[target.first][target.second] << "\n";
    std::cout << maze.reached << " " << maze.farthest << "\n";
    return 0;
}
