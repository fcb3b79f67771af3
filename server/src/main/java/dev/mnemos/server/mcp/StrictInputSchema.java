package dev.mnemos.server.mcp;

import io.quarkiverse.mcp.server.GlobalInputSchemaGenerator;
import io.quarkiverse.mcp.server.InputSchemaGenerator;
import io.quarkiverse.mcp.server.ToolManager;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;

/**
 * The input schema every Mnemos tool publishes: the one the MCP server generates from the tool's typed
 * {@code @ToolArg}s ({@link StrictSchemaOptions} makes every object in it strict), refusing, like
 * {@link StrictArguments}, any argument the tool does not take ({@code additionalProperties: false}).
 */
@Singleton
public class StrictInputSchema implements InputSchemaGenerator<Object> {

    private final GlobalInputSchemaGenerator generated;

    StrictInputSchema(GlobalInputSchemaGenerator generated) {
        this.generated = generated;
    }

    @Override
    public Object generate(ToolManager.ToolInfo tool) {
        Object schema = generated.generate(tool).value();
        if (schema instanceof JsonObject object) {
            object.put("additionalProperties", false);
        }
        return schema;
    }
}
