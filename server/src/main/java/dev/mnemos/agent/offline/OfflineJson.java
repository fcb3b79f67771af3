package dev.mnemos.agent.offline;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.agent.*;

/** The offline model answers in the JSON the AI services parse into their records. */
final class OfflineJson {

    private OfflineJson() {
    }

    static String write(ObjectMapper json, Object answer) {
        try {
            return json.writeValueAsString(answer);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("offline answer not serialisable", e);
        }
    }
}
