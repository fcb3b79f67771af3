package dev.mnemos.server.api;

import dev.mnemos.rest.*;
import dev.langchain4j.exception.LangChain4jException;
import dev.mnemos.agent.AgentConfig;
import dev.mnemos.agent.ModelAnswerException;
import dev.mnemos.agent.TaskAgent;
import dev.mnemos.session.SessionIds;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
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

    @POST
    @Path("/agent/chat")
    public AgentRequests.Reply chat(AgentRequests.Chat body) {
        return chatAs(caller.userId(), body);
    }

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
