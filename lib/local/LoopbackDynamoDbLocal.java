import java.lang.reflect.Field;
import java.util.List;

/**
 * Starts Amazon's DynamoDB Local as its own main class does, from the same
 * command-line options, but reachable from this machine only. DynamoDB Local
 * has no option for the address it listens on: its Jetty server is made with
 * a port alone, which listens on every interface, and it answers any Host and
 * checks no signature. So before the server starts, its connector is bound to
 * the loopback interface (Jetty's setHost), and its one context answers only
 * requests whose Host is a loopback name (Jetty's virtual hosts; any other
 * Host is 404), so a DNS-rebinding page in a browser cannot reach it either.
 *
 * Run by Java's source launcher (`java -cp <DynamoDB Local's jars>
 * LoopbackDynamoDbLocal.java <options>`), so nothing is compiled ahead. It
 * reaches DynamoDB Local and Jetty by reflection only, which keeps the
 * in-memory compilation to this file (about a second, not the three that
 * compiling against DynamoDB Local's hundred jars takes). Unlike DynamoDB
 * Local's own main, it sends no telemetry.
 */
public class LoopbackDynamoDbLocal {
  private static final String BIND_ADDRESS = "127.0.0.1";
  private static final List<String> LOOPBACK_NAMES = List.of("127.0.0.1", "localhost", "[::1]");

  public static void main(String[] args) throws Exception {
    Object proxyServer = Class.forName("software.amazon.dynamodb.services.local.main.ServerRunner")
        .getMethod("createServerFromCommandLineArgs", String[].class)
        .invoke(null, (Object) args);
    Field serverField = proxyServer.getClass().getDeclaredField("server");
    serverField.setAccessible(true);
    Object server = serverField.get(proxyServer);
    for (Object connector : (Object[]) server.getClass().getMethod("getConnectors").invoke(server)) {
      connector.getClass().getMethod("setHost", String.class).invoke(connector, BIND_ADDRESS);
    }
    Class<?> contextHandler = Class.forName("org.eclipse.jetty.server.handler.ContextHandler");
    List<?> contexts = (List<?>) server.getClass().getMethod("getDescendants", Class.class).invoke(server, contextHandler);
    if (contexts.isEmpty()) throw new IllegalStateException("DynamoDB Local's server has no context to restrict to loopback names");
    for (Object context : contexts) contextHandler.getMethod("setVirtualHosts", List.class).invoke(context, LOOPBACK_NAMES);
    proxyServer.getClass().getMethod("start").invoke(proxyServer);
  }
}
