package dev.mnemos.server.mcp;

import io.quarkiverse.mcp.server.InputSchemaGenerator;
import io.quarkiverse.mcp.server.ToolManager;
import jakarta.inject.Singleton;

import java.util.Map;

/**
 * Publishes each Mnemos tool's strict input schema from {@link ToolInputs}, the same definition its calls are checked against.
 */
@Singleton
public class ToolSchemas implements InputSchemaGenerator<Map<String, Object>> {

    @Override
    public Map<String, Object> generate(ToolManager.ToolInfo tool) {
        return ToolInputs.of(tool.name()).schema();
    }
}
