// The link between the instances of a cloud run that spans several: half the network each lists
// (NCCL over TCP), 32% at the range's slow end, capped by a machine's own GPUs' link.

#include "core/instance_network.h"

#include <QtTest>

using namespace gpuplan;

namespace {

CloudOffer offerWithNetwork(const std::string& gpuId, double gbps)
{
    CloudOffer o;
    o.id = "net";
    o.gpuId = gpuId;
    o.gpusPerInstance = 1;
    o.network = InstanceNetwork { gbps, { "2026-08-26", "the provider's page", "" } };
    return o;
}

} // namespace

class TestInstanceNetwork : public QObject {
    Q_OBJECT

private slots:
    void noNetworkListedIsNoLink()
    {
        CloudOffer o = offerWithNetwork("card", 100.0);
        o.network.reset();
        QVERIFY(!NetworkBetweenInstances::of(o));
    }

    // 100 Gbit/s is 12.5 GB/s on the wire: NCCL's sockets reach half, 6.25 GB/s, and 4 GB/s
    // at the slowest report (NVIDIA/nccl#450, 4 GB/s of 100 Gbit/s).
    void halfTheListedRateOverTcp()
    {
        const auto network = NetworkBetweenInstances::of(offerWithNetwork("card", 100.0));
        QVERIFY(network);
        const Interconnect link = network->link();
        QCOMPARE(link.busGBps, 6.25);
        QCOMPARE(link.lowBusGBps, 4.0);
        QCOMPARE(busGBpsAt(link, 8), 6.25);
        QCOMPARE(std::string(link.gpuId), std::string("card"));
        QCOMPARE(std::string(link.name),
            std::string("each instance's listed 100 Gbit/s network, half of it over TCP"));
        QCOMPARE(std::string(link.date), std::string("2026-08-26"));
        QVERIFY(std::string(link.source).find("network: the provider's page (2026-08-26); ") == 0);
        QCOMPARE(std::string(link.lowBusIs),
            std::string("32% of the listed rate, the slowest share reported"));
        QVERIFY(std::string(link.source).find("NVIDIA/nccl issue #450") != std::string::npos);
        // RunPod's 100 Mbit/s between pods: 6.25 MB/s.
        QCOMPARE(NetworkBetweenInstances::of(offerWithNetwork("card", 0.1))->link().busGBps,
            0.1 / 8 * 0.5);
    }

    // A pod of several H100s also passes the ring through its NVSwitch (370 GB/s): the cap
    // where a listed network would be faster. A one-GPU instance has no such link to cross.
    void severalGpusInOneInstanceCapAtTheirOwnLink()
    {
        CloudOffer pod = offerWithNetwork("h100-80gb-sxm", 8000.0);
        pod.maxGpusPerInstance = 8;
        const auto network = NetworkBetweenInstances::of(pod); // the link's text views into it
        const Interconnect link = network->link();
        QCOMPARE(link.busGBps, 370.0); // 8000 / 8 x 0.5 = 500
        QCOMPARE(link.lowBusGBps, 320.0); // 8000 / 8 x 0.32, below the NVSwitch's 370
        QCOMPARE(std::string(link.name),
            std::string("the instance's own NVLink 4 through NVSwitch, slower than half its "
                        "listed 8000 Gbit/s network"));
        // Eight RTX 5090s in one host reach 28 GB/s between them, not the 35 of four: the cap.
        CloudOffer host = offerWithNetwork("rtx-5090", 800.0);
        host.gpusPerInstance = 8;
        QCOMPARE(NetworkBetweenInstances::of(host)->link().busGBps, 28.0);
        // Eight RTX PRO 6000s: the network's slow end, 800 / 8 x 0.32 = 32 GB/s, is above the
        // slowest such server's 22.2, which then sets it and says whose it is.
        CloudOffer pro = offerWithNetwork("rtx-pro-6000-blackwell", 800.0);
        pro.gpusPerInstance = 8;
        const auto proNetwork = NetworkBetweenInstances::of(pro);
        QCOMPARE(proNetwork->link().busGBps, 37.6);
        QCOMPARE(proNetwork->link().lowBusGBps, 22.2);
        QCOMPARE(std::string(proNetwork->link().lowBusIs),
            std::string("the instance's own link, the slowest published"));
        pod.network->gbps = 3200.0;
        QCOMPARE(NetworkBetweenInstances::of(pod)->link().busGBps, 200.0);
        const CloudOffer single = offerWithNetwork("h100-80gb-sxm", 8000.0);
        QCOMPARE(NetworkBetweenInstances::of(single)->link().busGBps, 500.0);
    }

    // The text views into the object: a copy answers from its own strings (a guard for ASan,
    // should link() ever be cached in a member that a copy would share).
    void aCopyKeepsItsOwnText()
    {
        std::optional<NetworkBetweenInstances> first
            = NetworkBetweenInstances::of(offerWithNetwork("card", 25.0));
        const NetworkBetweenInstances copy = *first;
        first.reset();
        QCOMPARE(std::string(copy.link().name),
            std::string("each instance's listed 25 Gbit/s network, half of it over TCP"));
    }
};

QTEST_APPLESS_MAIN(TestInstanceNetwork)
#include "tst_instance_network.moc"
