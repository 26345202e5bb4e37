import type { TeamId } from "../../shared/model.ts"
import type { Category, CategoryId, CategoryType } from "./Category.ts"

/** One category of the standard taxonomy every team starts with. */
export interface StandardCategory {
  readonly slug: string
  readonly name: string
  readonly color: string
  readonly type: CategoryType
  readonly parent: string | null
  readonly excluded: boolean
  readonly taxRate: number | null
  readonly taxType: string | null
}

type Entry = readonly [slug: string, name: string]

const group = (
  parent: Entry,
  color: string,
  type: CategoryType,
  children: ReadonlyArray<Entry>,
  childType: (slug: string) => CategoryType = () => type
): Array<StandardCategory> => [
  { slug: parent[0], name: parent[1], color, type, parent: null, excluded: false, taxRate: null, taxType: null },
  ...children.map(([slug, name]) => ({
    slug,
    name,
    color,
    type: childType(slug),
    parent: parent[0],
    excluded: false,
    taxRate: null,
    taxType: null
  }))
]

const CONTRA_REVENUE = new Set(["customer-refunds", "chargebacks-disputes"])

/**
 * The standard taxonomy, parents before their children: revenue (with the contra-revenue refunds and chargebacks),
 * cost of goods sold, the operating expenses, and the excluded transfers between own accounts and card repayments.
 * Seeded for every team (migration 0022 for the teams before it, `TeamOpening.open` for new ones); slugs are stable.
 */
export const STANDARD_CATEGORIES: ReadonlyArray<StandardCategory> = [
  ...group(
    ["revenue", "Revenue"],
    "#00C969",
    "revenue",
    [
      ["income", "Income"],
      ["product-sales", "Product sales"],
      ["service-revenue", "Service revenue"],
      ["consulting-revenue", "Consulting revenue"],
      ["subscription-revenue", "Subscription revenue"],
      ["interest-income", "Interest income"],
      ["other-income", "Other income"],
      ["customer-refunds", "Customer refunds"],
      ["chargebacks-disputes", "Chargebacks and disputes"]
    ],
    (slug) => (CONTRA_REVENUE.has(slug) ? "contra_revenue" : "revenue")
  ),
  ...group(["cost-of-goods-sold", "Cost of goods sold"], "#FF6B35", "cost_of_goods_sold", [
    ["inventory", "Inventory"],
    ["raw-materials", "Raw materials"],
    ["manufacturing", "Manufacturing"],
    ["shipping-inbound", "Inbound shipping"],
    ["duties-customs", "Duties and customs"]
  ]),
  ...group(["sales-marketing", "Sales and marketing"], "#9B59B6", "expense", [
    ["marketing", "Marketing"],
    ["advertising", "Advertising"],
    ["website", "Website"],
    ["events", "Events"]
  ]),
  ...group(["operations", "Operations"], "#3498DB", "expense", [
    ["rent", "Rent"],
    ["utilities", "Utilities"],
    ["office-supplies", "Office supplies"],
    ["equipment", "Equipment"],
    ["internet-and-phone", "Internet and phone"],
    ["shipping", "Shipping"]
  ]),
  ...group(["professional-services", "Professional services"], "#1ABC9C", "expense", [
    ["legal", "Legal"],
    ["accounting", "Accounting"],
    ["contractors", "Contractors"],
    ["insurance", "Insurance"]
  ]),
  ...group(["human-resources", "Human resources"], "#E67E22", "expense", [
    ["salary", "Salary"],
    ["benefits", "Benefits"],
    ["training", "Training"],
    ["recruiting", "Recruiting"]
  ]),
  ...group(["travel-entertainment", "Travel and entertainment"], "#F1C40F", "expense", [
    ["travel", "Travel"],
    ["meals", "Meals"],
    ["entertainment", "Entertainment"]
  ]),
  ...group(["technology", "Technology"], "#2980B9", "expense", [
    ["software", "Software"],
    ["hardware", "Hardware"],
    ["hosting", "Hosting"]
  ]),
  ...group(["banking-finance", "Banking and finance"], "#7F8C8D", "expense", [
    ["bank-fees", "Bank fees"],
    ["payment-processing-fees", "Payment processing fees"],
    ["interest-expense", "Interest expense"],
    ["loan-repayment", "Loan repayment"]
  ]),
  ...group(["taxes-government", "Taxes and government"], "#C0392B", "expense", [
    ["taxes", "Taxes"],
    ["licenses-permits", "Licenses and permits"]
  ]),
  {
    slug: "internal-transfers",
    name: "Internal transfers",
    color: "#95A5A6",
    type: "transfer",
    parent: null,
    excluded: true,
    taxRate: null,
    taxType: null
  },
  {
    slug: "credit-card-payments",
    name: "Credit card payments",
    color: "#BDC3C7",
    type: "transfer",
    parent: null,
    excluded: true,
    taxRate: null,
    taxType: null
  }
]

/** The slugs whose positive transactions are revenue (CONTRACT.md's revenue categories). */
export const REVENUE_SLUGS: ReadonlyArray<string> = [
  "revenue",
  "income",
  "product-sales",
  "service-revenue",
  "consulting-revenue",
  "subscription-revenue",
  "interest-income",
  "other-income"
]

/** The contra-revenue slugs: revenue given back, subtracted from revenue. */
export const CONTRA_REVENUE_SLUGS: ReadonlyArray<string> = ["customer-refunds", "chargebacks-disputes"]

/** The standard taxonomy as a team's system categories, parents first, with the ids given in the same order. */
export const standardCategoriesOf = (teamId: TeamId, ids: ReadonlyArray<CategoryId>, at: string): Array<Category> => {
  const idOf = new Map(STANDARD_CATEGORIES.map((category, i) => [category.slug, ids[i]!]))
  return STANDARD_CATEGORIES.map((category) => ({
    id: idOf.get(category.slug)!,
    teamId,
    slug: category.slug,
    name: category.name,
    color: category.color,
    description: null,
    taxRate: category.taxRate,
    taxType: category.taxType,
    parentId: category.parent === null ? null : (idOf.get(category.parent) ?? null),
    type: category.type,
    excluded: category.excluded,
    system: true,
    createdAt: at,
    updatedAt: at
  }))
}
