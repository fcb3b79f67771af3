package dev.mnemos.server.ops;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import io.quarkiverse.mcp.server.PromptManager;
import io.quarkiverse.mcp.server.ToolManager;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Keeps ids and other client-chosen text out of metric labels. The MCP server times each request with the
 * request's resource URI, tool name or prompt name as a label; a URI carries a session id and a name is
 * whatever the client sent, so every made-up id or name would add series (and show them at /q/metrics).
 * Resource URIs become their template ({@code mnemos://sessions/{sessionId}/memory-block}), names that no
 * registered tool or prompt has become {@value #UNKNOWN}: the number of series follows the server's
 * features, not its sessions, users or requests. HTTP server metrics already label REST requests with
 * their path template (and unmatched paths as {@code NOT_FOUND}).
 */
public class MetricLabels {

    static final String UNKNOWN = "unknown";
    static final String MEMORY_BLOCK_TEMPLATE = "mnemos://sessions/{sessionId}/memory-block";
    private static final Pattern MEMORY_BLOCK = Pattern.compile("mnemos://sessions/[^/]*/memory-block");
    private static final String MCP_REQUESTS = "mcp.server.requests.";

    @Produces
    @Singleton
    MeterFilter mcpLabels(Instance<ToolManager> tools, Instance<PromptManager> prompts) {
        return new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                if (!id.getName().startsWith(MCP_REQUESTS)) {
                    return id;
                }
                List<Tag> tags = new ArrayList<>(id.getTags().size());
                boolean changed = false;
                for (Tag tag : id.getTags()) {
                    String value = label(tag.getKey(), tag.getValue(), tools, prompts);
                    changed |= !value.equals(tag.getValue());
                    tags.add(Tag.of(tag.getKey(), value));
                }
                return changed ? id.replaceTags(tags) : id;
            }
        };
    }

    static String label(String key, String value, Instance<ToolManager> tools, Instance<PromptManager> prompts) {
        return switch (key) {
            case "resource.uri" -> value != null && MEMORY_BLOCK.matcher(value).matches() ? MEMORY_BLOCK_TEMPLATE : UNKNOWN;
            case "tool.name" -> value != null && tools.get().getTool(value) != null ? value : UNKNOWN;
            case "prompt.name" -> value != null && prompts.get().getPrompt(value) != null ? value : UNKNOWN;
            default -> value;
        };
    }
}
