#include "pathcov/core/Cfg.h"

#include <gtest/gtest.h>

using namespace pathcov;

namespace {
Cfg diamond(EdgeKind lastKind = EdgeKind::Fallthru) {
  Cfg cfg(5, 0, 4);
  cfg.addEdge(0, 1, EdgeKind::Fallthru, 7);
  cfg.addEdge(1, 2, EdgeKind::True);
  cfg.addEdge(1, 3, EdgeKind::False);
  cfg.addEdge(2, 4, EdgeKind::Fallthru);
  cfg.addEdge(3, 4, lastKind);
  return cfg;
}
} // namespace

TEST(Cfg, RejectsEdgesTheModelForbids) {
  Cfg cfg(4, 0, 3);
  EXPECT_THROW(cfg.addEdge(1, 0, EdgeKind::Fallthru), GraphError);
  EXPECT_THROW(cfg.addEdge(3, 1, EdgeKind::Fallthru), GraphError);
  EXPECT_THROW(cfg.addEdge(1, 4, EdgeKind::Fallthru), GraphError);
  EXPECT_THROW(cfg.addEdge(1, 2, EdgeKind::Fake), GraphError);
  EXPECT_NO_THROW(cfg.addEdge(1, 3, EdgeKind::Fake));
  EXPECT_THROW(Cfg(3, 1, 1), GraphError);
  EXPECT_THROW(Cfg(3, 0, 3), GraphError);
}

TEST(Cfg, EdgeKindNamesRoundTrip) {
  for (EdgeKind k : {EdgeKind::Fallthru, EdgeKind::True, EdgeKind::False,
                     EdgeKind::SwitchCase, EdgeKind::Eh, EdgeKind::Abnormal,
                     EdgeKind::Fake})
    EXPECT_EQ(parseEdgeKind(edgeKindName(k)), k);
  EXPECT_EQ(parseEdgeKind("sideways"), std::nullopt);
}

TEST(Cfg, ChecksumFollowsShapeNotFrequencies) {
  EXPECT_EQ(diamond().checksum(), diamond().checksum());
  Cfg hotter = diamond();
  hotter.addEdge(2, 3, EdgeKind::Fallthru);
  EXPECT_NE(hotter.checksum(), diamond().checksum());
  EXPECT_NE(diamond(EdgeKind::Eh).checksum(), diamond().checksum());

  Cfg reweighted(5, 0, 4);
  reweighted.addEdge(0, 1, EdgeKind::Fallthru, 1000);
  reweighted.addEdge(1, 2, EdgeKind::True, 3);
  reweighted.addEdge(1, 3, EdgeKind::False, 5);
  reweighted.addEdge(2, 4, EdgeKind::Fallthru);
  reweighted.addEdge(3, 4, EdgeKind::Fallthru);
  EXPECT_EQ(reweighted.checksum(), diamond().checksum());

  Cfg swapped(5, 0, 4);
  swapped.addEdge(0, 1, EdgeKind::Fallthru);
  swapped.addEdge(1, 3, EdgeKind::False);
  swapped.addEdge(1, 2, EdgeKind::True);
  swapped.addEdge(2, 4, EdgeKind::Fallthru);
  swapped.addEdge(3, 4, EdgeKind::Fallthru);
  EXPECT_NE(swapped.checksum(), diamond().checksum());
}
