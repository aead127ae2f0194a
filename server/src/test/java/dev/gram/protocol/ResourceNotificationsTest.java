package dev.gram.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.tools.spi.ResourceChange;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/**
 * A change's notification is encoded once and shared by every subscriber; what each one receives
 * is exactly the message built for it alone, its subscription id included.
 */
class ResourceNotificationsTest {

  @Test
  void theSharedTextIsTheMessageOfEachSubscriber() {
    ResourceChange c = new ResourceChange("gram://p/a b.gram", "p/a b.gram", 7, "abc123", "agent \"x\"",
        "+1 ~0 -0", ResourceChange.Kind.UPDATED);
    for (Object id : new Object[] {null, "l1", 42, 42L, "quote\"d", 3.5}) {
      String text = ResourceNotifications.updatedText(c, id);
      assertThat(new JsonObject(text)).isEqualTo(ResourceNotifications.updated(c, id));
      assertThat(text).isEqualTo(ResourceNotifications.updated(c, id).encode());
    }
  }

  @Test
  void aRemovedDocumentWithoutRevisionStillReadsBackWhole() {
    ResourceChange removed = new ResourceChange("gram://p/gone.gram", "p/gone.gram", -1, null, null, null,
        ResourceChange.Kind.REMOVED);
    JsonObject m = new JsonObject(ResourceNotifications.updatedText(removed, "sub-1"));
    assertThat(m.getJsonObject("params").getJsonObject("_meta").getString(MetaKeys.SUBSCRIPTION_ID)).isEqualTo("sub-1");
    assertThat(m.getJsonObject("params").getJsonObject("_meta").getString("change")).isEqualTo("removed");
    assertThat(ResourceNotifications.listChangedText("sub-1"))
        .isEqualTo(ResourceNotifications.listChanged("sub-1").encode());
  }
}
