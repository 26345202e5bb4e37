import type { ActivityItem, PromiseClient, Team } from "@svc/sdk"
import { useEffect, useMemo, useRef, useState } from "preact/hooks"
import { Activity } from "./activity/Activity.tsx"
import { ActivityDetail } from "./activity/ActivityDetail.tsx"
import { isKind } from "./activity/filters.ts"
import { Inbox } from "./approvals/Inbox.tsx"
import { FreezesProvider, FrozenBanner, useFreezes } from "./approvals/SpendFreeze.tsx"
import { Finance } from "./finance/Finance.tsx"
import { Ledger } from "./ledger/Ledger.tsx"
import { CreateTeam } from "./onboarding/CreateTeam.tsx"
import { PendingInvitation, rememberInvitation } from "./onboarding/Invitation.tsx"
import { clientFor, currentSession, type DashboardSession, endSession } from "./session/api.ts"
import { type Workspace, WorkspaceContext } from "./session/context.ts"
import { SignIn } from "./session/SignIn.tsx"
import { Settings } from "./settings/Settings.tsx"
import { ErrorNote, Link } from "./ui/components.tsx"
import { navigate, useRoute } from "./ui/router.ts"

const PAGES = [
  { path: "/", label: "Approvals" },
  { path: "/activity", label: "Activity" },
  { path: "/ledger", label: "Ledger" },
  { path: "/finance", label: "Finance" },
  { path: "/settings", label: "Settings" }
] as const

const sectionOf = (path: string) =>
  PAGES.slice(1).find((page) => path === page.path || path.startsWith(`${page.path}/`))?.path ?? "/"

/** The page of the current path. */
const Page = ({ path }: { readonly path: string }) => {
  const detail = /^\/activity\/([a-z_]+)\/([^/]+)$/u.exec(path)
  if (detail !== null && isKind(detail[1] ?? "")) {
    return <ActivityDetail kind={detail[1] as ActivityItem["kind"]} id={decodeURIComponent(detail[2] ?? "")} />
  }
  switch (sectionOf(path)) {
    case "/activity":
      return <Activity />
    case "/ledger":
      return <Ledger />
    case "/finance":
      return <Finance path={path} />
    case "/settings":
      return <Settings />
    default:
      return <Inbox />
  }
}

/** The person's current team (with their role in it), null when they have none. */
const loadTeam = async (client: PromiseClient): Promise<Team | null> => {
  const [me, teams] = await Promise.all([client.me.me(), client.me.listTeams({ query: { limit: 100 } })])
  return teams.data.find((team) => team.id === me.teamId) ?? null
}

/** A team's pages, each under the banner that says spending is frozen while it is. */
const TeamPages = ({ path }: { readonly path: string }) => (
  <FreezesProvider value={useFreezes()}>
    <FrozenBanner />
    <Page path={path} />
  </FreezesProvider>
)

const Shell = ({
  workspace,
  onTeamCreated,
  reloadTeam
}: {
  readonly workspace: Workspace
  readonly onTeamCreated: (team: Team) => void
  readonly reloadTeam: () => Promise<void>
}) => {
  const { path } = useRoute()
  const [created, setCreated] = useState<Team | null>(null)
  const section = sectionOf(path)
  const firstPath = useRef(path)
  useEffect(() => {
    const page = PAGES.find((p) => p.path === section)
    document.title = `${page?.label ?? "Dashboard"} · Dashboard`
  }, [section])
  useEffect(() => {
    // After an in-app navigation, start a screen reader (and the keyboard) at the new page's heading.
    if (path !== firstPath.current) document.querySelector<HTMLElement>("main h1")?.focus()
  }, [path])
  return (
    <WorkspaceContext.Provider value={workspace}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <nav aria-label="Main">
          <ul>
            {PAGES.map((page) => (
              <li key={page.path}>
                <Link to={page.path} current={section === page.path}>
                  {page.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span>
            {workspace.session.user.email}
            {workspace.team === null ? null : ` · ${workspace.team.name} (${workspace.team.role})`}
          </span>
          <button type="button" onClick={workspace.signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        <PendingInvitation workspace={workspace} onAccepted={reloadTeam} />
        {workspace.team === null ? (
          <CreateTeam
            workspace={workspace}
            onCreated={(team) => {
              setCreated(team)
              onTeamCreated(team)
              navigate("/settings")
            }}
          />
        ) : (
          <>
            {created === null || section !== "/settings" ? null : (
              <p role="status" class="notice">
                {created.name} is ready and you are its owner. Invite the others under Members and roles, and make
                yourself a personal token for the CLI under Personal tokens.
              </p>
            )}
            <TeamPages path={path} />
          </>
        )}
      </main>
    </WorkspaceContext.Provider>
  )
}

type State =
  | { readonly state: "checking" }
  | { readonly state: "signed-out" }
  | { readonly state: "failed"; readonly error: unknown }
  | { readonly state: "signed-in"; readonly session: DashboardSession; readonly team: Team | null }

/** The app: the sign-in page until there is a session, then the signed-in shell. */
export const App = () => {
  const [state, setState] = useState<State>({ state: "checking" })
  const enter = (session: DashboardSession) =>
    loadTeam(clientFor(session.csrfToken)).then(
      (team) => setState({ state: "signed-in", session, team }),
      (error: unknown) => setState({ state: "failed", error })
    )
  useEffect(() => {
    rememberInvitation()
    currentSession().then(
      (session) => {
        if (session === null) return setState({ state: "signed-out" })
        // Already signed in: a sign-in link opened again is not needed, and its token leaves the address bar unused.
        if (location.hash.includes("token=")) navigate("/", { replace: true })
        return enter(session)
      },
      (error: unknown) => setState({ state: "failed", error })
    )
  }, [])
  const session = state.state === "signed-in" ? state.session : null
  const client = useMemo(() => (session === null ? null : clientFor(session.csrfToken)), [session])
  if (state.state === "checking") {
    return (
      <p class="muted" role="status">
        Loading…
      </p>
    )
  }
  if (state.state === "failed") return <ErrorNote error={state.error} />
  if (state.state === "signed-out" || session === null || client === null) {
    return (
      <SignIn
        onSignedIn={(signedIn) => {
          navigate("/", { replace: true })
          void enter(signedIn)
        }}
      />
    )
  }
  const team = state.state === "signed-in" ? state.team : null
  const workspace: Workspace = {
    session,
    client,
    team,
    canManage: team?.role === "owner" || team?.role === "admin",
    signOut: () => {
      void endSession(session.csrfToken).finally(() => {
        setState({ state: "signed-out" })
        navigate("/sign-in", { replace: true })
      })
    }
  }
  return (
    <Shell
      workspace={workspace}
      onTeamCreated={(created) => setState({ state: "signed-in", session, team: created })}
      reloadTeam={() => enter(session)}
    />
  )
}
