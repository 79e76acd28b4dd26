// Langton's ant on a wrapping grid.
//
// Input: width, height and a number of steps, then the ant's start "x y" and heading (N, E, S or
// W). All cells start white. At a white cell the ant turns right, at a black cell left; it flips the
// cell's colour and moves forward one cell (wrapping at the edges). Output: the ant's final position
// and heading, the number of black cells, and the grid ('#' black, '.' white).
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

const std::string HEADINGS = "NESW";
const long long DX[] = {0, 1, 0, -1};  // per heading in HEADINGS
const long long DY[] = {-1, 0, 1, 0};

using Grid = std::vector<std::vector<bool>>;

std::tuple<Grid, long long, long long, char> walk(long long width, long long height, long long steps, long long x,
                                                  long long y, char heading) {
    Grid black(height, std::vector<bool>(width, false));
    for (long long step = 0; step < steps; step++) {
        long long turn = black[y][x] ? -1 : 1;
        long long h = (static_cast<long long>(HEADINGS.find(heading)) + turn + 4) % 4;
        heading = HEADINGS[h];
        black[y][x] = !black[y][x];
        x = ((x + DX[h]) % width + width) % width;
        y = ((y + DY[h]) % height + height) % height;
    }
    return {black, x, y, heading};
}

int main() {
    long long width, height, steps, x, y;
    std::string heading;
    std::cin >> width >> height >> steps >> x >> y >> heading;
    if (heading.size() != 1 || HEADINGS.find(heading) == std::string::npos) {
        std::cerr << "heading must be one of N, E, S, W, not '" << heading << "'\n";
        return 1;
    }
    auto [black, final_x, final_y, final_heading] = walk(width, height, steps, x, y, heading[0]);
    long long count = 0;
    for (const auto& row : black) {
        for (bool cell : row) {
            count += cell;
        }
    }
    std::cout << "ant " << final_x << " " << final_y << " " << final_heading << "\n";
    std::cout << "black " << count << "\n";
    for (const auto& row : black) {
        std::string text;
        for (bool cell : row) {
            text += cell ? '#' : '.';
        }
        std::cout << text << "\n";
    }
    return 0;
}
