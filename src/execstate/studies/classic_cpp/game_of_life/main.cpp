// Conway's Game of Life on a torus.
//
// Input: rows, columns and the number of generations, then the grid ('#' alive, '.' dead). The
// grid wraps around at its edges. Output: the grid after the last generation, then the population
// after each generation.
#include <cstddef>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using Grid = std::vector<std::vector<bool>>;

// One generation: the new grid and the number of births and deaths.
std::tuple<Grid, long long, long long> step(const Grid& grid) {
    long long rows = static_cast<long long>(grid.size()), cols = static_cast<long long>(grid[0].size());
    Grid nxt(rows, std::vector<bool>(cols, false));
    long long births = 0, deaths = 0;
    long long c = 0;  // the column; like a Python loop variable it keeps its last value
    for (long long r = 0; r < rows; r++) {
        for (long long at = 0; at < cols && ((c = at), true); at++) {
            long long around = 0;
            for (long long dr = -1; dr <= 1; dr++) {
                for (long long dc = -1; dc <= 1; dc++) {
                    if (dr || dc) {
                        around += grid[(r + dr + rows) % rows][(c + dc + cols) % cols];
                    }
                }
            }
            if (grid[r][c]) {
                nxt[r][c] = around == 2 || around == 3;
                deaths += !nxt[r][c];
            } else if (around == 3) {
                nxt[r][c] = true;
                births += 1;
            }
        }
    }
    return {nxt, births, deaths};
}

int main() {
    std::string header;
    std::getline(std::cin, header);
    std::istringstream fields(header);
    std::size_t rows, cols, generations;
    fields >> rows >> cols >> generations;
    Grid grid;
    std::string line;
    while (grid.size() < rows && std::getline(std::cin, line)) {
        std::vector<bool> row;
        for (std::size_t c = 0; c < cols && c < line.size(); c++) {
            row.push_back(line[c] == '#');
        }
        grid.push_back(row);
    }
    std::vector<std::string> history;
    for (std::size_t generation = 0; generation < generations; generation++) {
        auto [next, births, deaths] = step(grid);
        grid = next;
        long long population = 0;
        for (const auto& row : grid) {
            for (bool alive : row) {
                population += alive;
            }
        }
        history.push_back(std::to_string(population) + " (+" + std::to_string(births) + " -" + std::to_string(deaths) +
                          ")");
    }
    for (const auto& row : grid) {
        std::string text;
        for (bool alive : row) {
            text += alive ? '#' : '.';
        }
        std::cout << text << "\n";
    }
    std::string populations;
    for (const std::string& entry : history) {
        if (!populations.empty()) populations += ", ";
        populations += entry;
    }
    std::cout << "population: " << populations << "\n";
    return 0;
}
