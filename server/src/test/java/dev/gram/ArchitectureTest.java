package dev.gram;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layers of the server, as docs/architecture.md draws them, checked on the compiled classes:
 *
 * <pre>
 *   base, async, access              the ground floor: any layer may use it; it uses none
 *                                    (access, who may reach what, stands on base alone)
 *   format → edit → store → index → tools → protocol → transport → web → server
 *                         ↘ cluster ───────────────────────────────────────────↗
 *                         ↘ gate (the store as one caller sees it) → tools
 *   access → auth (credentials: token, agents file, OAuth) ──────────────────────→ server
 * </pre>
 *
 * <p>The web view sits after the transport, which mounts it without knowing it (through {@code
 * HttpMount}); it reads the store's snapshots and writes only through the tools.
 *
 * <p>The cluster sits on the store and is wired in by the server alone: it implements the store's
 * write interface, so nothing between them (index, tools, protocol, transport) can tell whether a
 * write crosses the network.
 *
 * <p>Each layer may use the ones before it and the ground floor, never one after it. Two rooms
 * inside the tools layer have rules of their own: the protocol knows tools only through
 * {@code tools.spi} (the interfaces a tool implements), and {@code tools.support} (what tools
 * share) never reaches into the tools themselves. No two packages depend on each other, through
 * any number of steps.
 */
class ArchitectureTest {
  private static JavaClasses product;

  @BeforeAll
  static void importProductClasses() {
    product =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.gram");
  }

  @Test
  void importsTheProduct() {
    // A rule over no classes passes vacuously; make sure the importer found the server.
    org.assertj.core.api.Assertions.assertThat(product.containPackage("dev.gram.store")).isTrue();
    org.assertj.core.api.Assertions.assertThat(product.containPackage("dev.gram.conformance"))
        .as("the conformance runner is its own module, not part of the server")
        .isFalse();
  }

  @Test
  void layersOnlyLookDown() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("Base").definedBy("dev.gram.base..")
        .layer("Async").definedBy("dev.gram.async..")
        .layer("Access").definedBy("dev.gram.access..")
        .layer("Format").definedBy("dev.gram.format..")
        .layer("Edit").definedBy("dev.gram.edit..")
        .layer("Store").definedBy("dev.gram.store..")
        .layer("Cluster").definedBy("dev.gram.cluster..")
        .layer("Index").definedBy("dev.gram.index..")
        .layer("Gate").definedBy("dev.gram.gate..")
        .layer("Auth").definedBy("dev.gram.auth..")
        .layer("ToolSpi").definedBy("dev.gram.tools.spi..")
        .layer("Tools").definedBy("dev.gram.tools", "dev.gram.tools.support..", "dev.gram.tools.resources..")
        .layer("Protocol").definedBy("dev.gram.protocol..")
        .layer("Transport").definedBy("dev.gram.transport..")
        .layer("Web").definedBy("dev.gram.web..")
        .layer("Server").definedBy("dev.gram.server..")
        .whereLayer("Base").mayNotAccessAnyLayer()
        .whereLayer("Async").mayOnlyAccessLayers("Base")
        .whereLayer("Access").mayOnlyAccessLayers("Base")
        .whereLayer("Format").mayOnlyAccessLayers("Base")
        .whereLayer("Edit").mayOnlyAccessLayers("Base", "Format")
        .whereLayer("Store").mayOnlyAccessLayers("Base", "Async", "Format", "Edit")
        .whereLayer("Cluster").mayOnlyAccessLayers("Base", "Async", "Format", "Edit", "Store")
        .whereLayer("Cluster").mayOnlyBeAccessedByLayers("Server")
        .whereLayer("Index").mayOnlyAccessLayers("Base", "Async", "Format", "Edit", "Store")
        .whereLayer("Gate").mayOnlyAccessLayers("Base", "Async", "Access", "Format", "Store")
        .whereLayer("Auth").mayOnlyAccessLayers("Base", "Async", "Access")
        .whereLayer("Auth").mayOnlyBeAccessedByLayers("Server")
        .whereLayer("ToolSpi").mayOnlyAccessLayers("Base", "Async", "Access")
        .whereLayer("Tools")
        .mayOnlyAccessLayers("Base", "Async", "Access", "Format", "Edit", "Store", "Index", "Gate", "ToolSpi")
        .whereLayer("Protocol").mayOnlyAccessLayers("Base", "Async", "Access", "ToolSpi")
        .whereLayer("Transport").mayOnlyAccessLayers("Base", "Async", "Access", "Protocol")
        .whereLayer("Web")
        .mayOnlyAccessLayers("Base", "Async", "Access", "Format", "Edit", "Store", "Gate", "ToolSpi", "Tools",
            "Protocol", "Transport")
        .check(product);
  }

  @Test
  void theWebViewWritesOnlyThroughTheTools() {
    noClasses()
        .that().resideInAPackage("dev.gram.web..")
        .should().dependOnClassesThat().haveFullyQualifiedName("dev.gram.store.DocumentWriter")
        .orShould().dependOnClassesThat().haveFullyQualifiedName("dev.gram.store.Vault")
        .orShould().dependOnClassesThat().haveFullyQualifiedName("dev.gram.store.WriteCommand")
        .because("a person's edit is a gram_patch like an agent's: CAS, request_id, attribution")
        .check(product);
  }

  @Test
  void toolSupportNeverReachesIntoTheTools() {
    noClasses()
        .that().resideInAPackage("dev.gram.tools.support..")
        .should().dependOnClassesThat().resideInAPackage("dev.gram.tools")
        .because("tools.support is what every tool shares; a tool depends on it, not the reverse")
        .check(product);
  }

  @Test
  void toolsReachTheStoreThroughItsInterfaces() {
    noClasses()
        .that().resideInAnyPackage("dev.gram.tools..")
        .should().dependOnClassesThat().haveFullyQualifiedName("dev.gram.store.Vault")
        .because("the store's interfaces are the seam a cluster routes writes through")
        .check(product);
  }

  @Test
  void noPackageCycles() {
    slices().matching("dev.gram.(**)").should().beFreeOfCycles().check(product);
  }
}
