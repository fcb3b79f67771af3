package dev.mnemos.server.api;

import dev.langchain4j.exception.LangChain4jException;
import dev.mnemos.agent.AgentConfig;
import dev.mnemos.agent.ModelAnswerException;
import dev.mnemos.agent.TaskAgent;
import dev.mnemos.rest.*;
import dev.mnemos.rest.Problem;
import dev.mnemos.session.SessionIds;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The task-breakdown agent over HTTP. The user is the token's subject, or for a {@code service}
 * token the user named in {@code /v1/users/{userId}/agent/chat}; another user's session answers
 * 404 and an ended one 409.
 */
@Path("/v1")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class AgentResource {

    private static final Logger LOG = Logger.getLogger(AgentResource.class);

    private final TaskAgent agent;
    private final AgentConfig config;
    private final Caller caller;

    public AgentResource(TaskAgent agent, AgentConfig config, Caller caller) {
        this.agent = agent;
        this.config = config;
        this.caller = caller;
    }

    @Operation(summary = "Chat with the task-breakdown agent", description = "Sends one message: the agent reads the session memory (and the profile when Postgres is up), calls the model and writes the step back. Without `sessionId` a new session starts.")
    @APIResponse(responseCode = "400", description = "Invalid request (missing message, unknown field).", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "200", description = "The agent's reply, the session and the version the step wrote.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = AgentRequests.Reply.class)))
    @APIResponse(responseCode = "401", description = "No valid bearer token.")
    @APIResponse(responseCode = "404", description = "No such session for this caller.", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = "The session has ended, or a concurrent step wrote first: retry the message.", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "413", description = "The request body exceeds the configured limit.", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "502", description = "The language model failed, timed out or gave an unusable answer: nothing was written for that step; retry the message.", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = "Session memory (Redis) is unavailable: the model was not called and nothing was written; retry after Retry-After seconds.", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @POST
    @Path("/agent/chat")
    public AgentRequests.Reply chat(AgentRequests.Chat body) {
        return chatAs(caller.userId(), body);
    }

    @Operation(summary = "Chat on behalf of a user (service token)", description = "As `POST /v1/agent/chat`, for the user `userId`; only service tokens may act for another user.")
    @APIResponse(responseCode = "400", description = "Invalid request (missing message, unknown field).", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "200", description = "The agent's reply, the session and the version the step wrote.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = AgentRequests.Reply.class)))
    @APIResponse(responseCode = "401", description = "No valid bearer token.")
    @APIResponse(responseCode = "404", description = "No such session for this user, or a user token naming another user.", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = "The session has ended, or a concurrent step wrote first: retry the message.", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "413", description = "The request body exceeds the configured limit.", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "502", description = "The language model failed, timed out or gave an unusable answer: nothing was written for that step; retry the message.", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = "Session memory (Redis) is unavailable: the model was not called and nothing was written; retry after Retry-After seconds.", content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @POST
    @Path("/users/{userId}/agent/chat")
    public AgentRequests.Reply chatFor(@PathParam("userId") String userId, AgentRequests.Chat body) {
        return chatAs(caller.actFor(userId), body);
    }

    private AgentRequests.Reply chatAs(String userId, AgentRequests.Chat body) {
        if (body == null || body.message() == null || body.message().isBlank()) {
            throw new InvalidRequestException("message", "a non-blank message");
        }
        if (body.message().length() > config.maxMessageChars()) {
            throw new InvalidRequestException("message", "at most " + config.maxMessageChars()
                    + " characters, got " + body.message().length());
        }
        String sessionId = body.sessionId() == null ? null : SessionIds.require("sessionId", body.sessionId());
        return AgentRequests.Reply.of(agent.chat(userId, sessionId, body.message().strip()));
    }

    @ServerExceptionMapper
    public Response unusableAnswer(ModelAnswerException e) {
        LOG.warnf("model answer unusable for prompt %s", e.prompt());
        return modelFailed();
    }

    /** The model failed, timed out, or answered text that does not parse into the step's record. */
    @ServerExceptionMapper
    public Response modelFailure(LangChain4jException e) {
        LOG.warn("model call failed", e);
        return modelFailed();
    }

    private static Response modelFailed() {
        return Problem.of(502, "Bad Gateway", "the language model failed or gave an unusable answer; nothing was "
                + "written for that step; retry the message").toResponse();
    }
}
