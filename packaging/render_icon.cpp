// Renders the scalable application icon to the PNG sizes desktops look up in
// share/icons/hicolor/<N>x<N>/apps, so the SVG stays the one source of the icon.
// Usage: gpuplan-render-icon ICON.svg OUTPUT_DIR SIZE...

#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTextStream>

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen"); // runs during the build, without a display
    QGuiApplication app(argc, argv);
    const QStringList args = QGuiApplication::arguments();
    if (args.size() < 4) {
        QTextStream(stderr) << "usage: gpuplan-render-icon ICON.svg OUTPUT_DIR SIZE...\n";
        return 2;
    }
    QSvgRenderer svg(args[1]);
    if (!svg.isValid()) {
        QTextStream(stderr) << "gpuplan-render-icon: cannot read " << args[1] << '\n';
        return 2;
    }
    for (qsizetype i = 3; i < args.size(); ++i) {
        const int size = args[i].toInt();
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        svg.render(&painter);
        painter.end();
        const QString path = args[2] + QStringLiteral("/%1.png").arg(size);
        if (!image.save(path)) {
            QTextStream(stderr) << "gpuplan-render-icon: cannot write " << path << '\n';
            return 1;
        }
    }
    return 0;
}
