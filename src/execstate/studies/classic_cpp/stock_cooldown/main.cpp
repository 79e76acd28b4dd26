// Stock trading with a cooldown day and a fee: the best achievable profit.
//
// Input: n, then n daily prices, then q, then q fees. You hold at most one share; every sale costs
// the fee, and the day after a sale you may not buy. For each fee, output the best profit and the
// largest number of completed trades among the plans reaching it.
#include <algorithm>
#include <cstddef>
#include <iostream>
#include <utility>
#include <vector>

// A state of the machine: (cash, trades); comparing pairs prefers cash, then trades.
using State = std::pair<long long, long long>;

// The best (profit, trades) via the three-state machine hold / sold / rest.
State best_profit(const std::vector<long long>& prices, long long fee) {
    State hold = {-prices[0], 0};  // holding a share
    State sold = {-1000000000, 0};  // sold today, so tomorrow is a cooldown day
    State rest = {0, 0};            // free to buy
    for (std::size_t day = 1; day < prices.size(); day++) {
        long long price = prices[day];
        State buy = {rest.first - price, rest.second};
        State sell = {hold.first + price - fee, hold.second + 1};
        State rested = std::max(rest, sold);
        hold = std::max(hold, buy);
        sold = sell;
        rest = rested;
    }
    return std::max(sold, rest);
}

int main() {
    std::size_t n, q;
    if (!(std::cin >> n)) {
        std::cerr << "truncated input: expected n prices then q fees\n";
        return 1;
    }
    std::vector<long long> prices(n);
    for (long long& price : prices) std::cin >> price;
    std::cin >> q;
    std::vector<long long> fees(q);
    for (long long& fee : fees) std::cin >> fee;
    if (!std::cin) {
        std::cerr << "truncated input: expected n prices then q fees\n";
        return 1;
    }
    for (long long fee : fees) {
        auto [profit, trades] = best_profit(prices, fee);
        std::cout << "fee " << fee << ": profit " << profit << ", trades " << trades << "\n";
    }
    return 0;
}
