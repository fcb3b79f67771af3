package dev.mnemos.profile;

import io.quarkus.hibernate.orm.PersistenceUnitExtension;
import jakarta.enterprise.context.ApplicationScoped;
import org.hibernate.resource.jdbc.spi.StatementInspector;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Every SQL statement Hibernate sends (entities, Panache queries and native queries), while recording is on. */
@PersistenceUnitExtension
@ApplicationScoped
public class RecordedSql implements StatementInspector {

    private static final Queue<String> STATEMENTS = new ConcurrentLinkedQueue<>();
    private static volatile boolean recording;

    @Override
    public String inspect(String sql) {
        if (recording) {
            STATEMENTS.add(sql);
        }
        return sql;
    }

    static void start() {
        STATEMENTS.clear();
        recording = true;
    }

    static List<String> stop() {
        recording = false;
        return List.copyOf(STATEMENTS);
    }
}
