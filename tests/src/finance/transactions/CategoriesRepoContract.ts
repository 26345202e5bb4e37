import { assert, layer } from "@effect/vitest"
import { CategoriesRepo, type Category, CategoryId, STANDARD_CATEGORIES, type TeamId } from "@svc/domain"
import { Effect, type Layer, Option } from "effect"
import { domainOver, type LedgerPorts, newTeam } from "../../ledger/LedgerSetup.ts"

const AT = "2026-03-01T10:00:00.000Z"

/** A team-defined category of a team. */
const teamCategory = (teamId: TeamId, slug: string, overrides: Partial<Category> = {}): Category => ({
  id: CategoryId.make(crypto.randomUUID()),
  teamId,
  slug,
  name: slug,
  color: "#123456",
  description: null,
  taxRate: null,
  taxType: null,
  parentId: null,
  type: "expense",
  excluded: false,
  system: false,
  createdAt: AT,
  updatedAt: AT,
  ...overrides
})

/** The categories repository and the seeding of new teams, on any adapter. */
export const categoriesRepoContract = <E>(name: string, ports: Layer.Layer<LedgerPorts, E>) =>
  layer(domainOver(ports), { timeout: "60 seconds" })(`categories repository (${name})`, (it) => {
    it.effect("a new team starts with the standard taxonomy, parents linked", () =>
      Effect.gen(function* () {
        const { team } = yield* newTeam
        const categories = yield* (yield* CategoriesRepo).list(team.id)
        assert.deepStrictEqual(
          categories.map((c) => c.slug).toSorted(),
          STANDARD_CATEGORIES.map((c) => c.slug).toSorted()
        )
        assert.isTrue(categories.every((c) => c.system && c.teamId === team.id))
        const revenue = categories.find((c) => c.slug === "revenue")!
        const refunds = categories.find((c) => c.slug === "customer-refunds")!
        assert.strictEqual(refunds.parentId, revenue.id)
        assert.strictEqual(refunds.type, "contra_revenue")
        assert.isTrue(categories.find((c) => c.slug === "internal-transfer")!.excluded)
      })
    )

    it.effect("team-defined categories: slugs unique per team, updates, deletes; system ones stay", () =>
      Effect.gen(function* () {
        const repo = yield* CategoriesRepo
        const { team } = yield* newTeam
        const { team: other } = yield* newTeam
        const parent = teamCategory(team.id, "studio")
        const child = teamCategory(team.id, "studio-rent", { parentId: parent.id })
        assert.strictEqual(yield* repo.insert([parent]), "inserted")
        assert.strictEqual(yield* repo.insert([child]), "inserted")
        assert.strictEqual(yield* repo.insert([teamCategory(team.id, "studio")]), "slug_taken")
        assert.strictEqual(yield* repo.insert([teamCategory(team.id, "rent")]), "slug_taken", "a system slug")
        assert.strictEqual(yield* repo.insert([teamCategory(other.id, "studio")]), "inserted", "another team's slug")

        assert.deepStrictEqual(yield* repo.find(team.id, child.id), Option.some(child))
        assert.isTrue(Option.isNone(yield* repo.find(other.id, child.id)), "another team's category is not found")
        assert.deepStrictEqual(
          (yield* repo.findMany(team.id, [child.id, parent.id, CategoryId.make(crypto.randomUUID())]))
            .map((c) => c.id)
            .toSorted(),
          [child.id, parent.id].toSorted()
        )

        const later = "2026-03-02T10:00:00.000Z"
        const renamed = yield* repo.update(team.id, child.id, { name: "Studio rent", taxRate: 7.5, updatedAt: later })
        assert.deepStrictEqual(renamed, { ...child, name: "Studio rent", taxRate: 7.5, updatedAt: later })
        assert.strictEqual(yield* repo.update(team.id, child.id, { slug: "studio", updatedAt: later }), "slug_taken")
        assert.strictEqual(yield* repo.update(other.id, child.id, { name: "x", updatedAt: later }), "not_found")

        assert.strictEqual(yield* repo.remove(other.id, parent.id), false)
        assert.strictEqual(yield* repo.remove(team.id, parent.id), true)
        assert.strictEqual(Option.getOrThrow(yield* repo.find(team.id, child.id)).parentId, null, "children lose it")
        assert.strictEqual(yield* repo.remove(team.id, parent.id), false)

        const rent = (yield* repo.list(team.id)).find((c) => c.slug === "rent")!
        assert.strictEqual(yield* repo.remove(team.id, rent.id), "system")
        assert.isTrue(Option.isSome(yield* repo.find(team.id, rent.id)))
      })
    )
  })
