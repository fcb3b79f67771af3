package dev.mnemos.promotion;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The application's languages for reading user statements: every {@code mnemos/markers/*.json} found
 * on the class path plus {@link PromotionConfig#languages()}. Adding a language is adding its file.
 * Shared by promotion and by anything that wants to split a message into clauses the same way.
 */
@ApplicationScoped
public class StatementReader {

    private static final Logger LOG = Logger.getLogger(StatementReader.class);

    private final Markers markers;
    private final PromotionPolicy policy;

    @Inject
    public StatementReader(PromotionConfig config) {
        this.markers = Markers.load(languages(config.languages()), classes());
        this.policy = PromotionPolicy.of(config, markers);
        LOG.debugf("statement languages: %s", markers.languages());
    }

    /** The promotion policy over these languages. */
    public PromotionPolicy policy() {
        return policy;
    }

    public Markers markers() {
        return markers;
    }

    /** The clauses of a message, each to be decided alone. */
    public List<String> clauses(String text) {
        return markers.clauses(text);
    }

    /** How one clause reads. */
    public Reading read(String clause) {
        return markers.read(clause);
    }

    private static ClassLoader classes() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : StatementReader.class.getClassLoader();
    }

    /** The configured languages and every language file on the class path, sorted. */
    static List<String> languages(List<String> configured) {
        TreeSet<String> all = new TreeSet<>(configured);
        try {
            Enumeration<URL> folders = classes().getResources(MarkerSet.FOLDER);
            while (folders.hasMoreElements()) {
                all.addAll(listed(folders.nextElement()));
            }
        } catch (IOException e) {
            LOG.debugf("language files not listed (%s); using the configured languages", e.toString());
        }
        return List.copyOf(all);
    }

    private static List<String> listed(URL folder) throws IOException {
        if ("file".equals(folder.getProtocol())) {
            try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
                return names(files.map(p -> p.getFileName().toString()));
            } catch (URISyntaxException e) {
                return List.of();
            }
        }
        if (folder.openConnection() instanceof JarURLConnection jar) {
            return names(jar.getJarFile().stream().map(e -> e.getName())
                    .filter(n -> n.startsWith(MarkerSet.FOLDER))
                    .map(n -> n.substring(MarkerSet.FOLDER.length())));
        }
        return List.of();
    }

    private static List<String> names(Stream<String> files) {
        return files.filter(n -> n.matches("[a-z]{2,3}(-[A-Za-z0-9]+)?\\.json")).map(n -> n.substring(0, n.length() - 5))
                .toList();
    }
}
