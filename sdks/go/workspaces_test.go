package smm_test

import (
	"context"
	"errors"
	"testing"

	"smm.local/smm"
)

// problemCode is the code of an APIError of the given status, or "" if err is not one.
func problemCode(err error, status int) string {
	var apiErr *smm.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != status {
		return ""
	}
	return apiErr.Problem.Code
}

func TestWorkspacesMembersAndRoles(t *testing.T) {
	live := smm.LiveEnv(t)
	ctx := context.Background()
	c := live.Client(t)
	member := live.Member(t)
	me, err := member.Me(ctx)
	if err != nil {
		t.Fatal(err)
	}

	team, err := c.Workspaces.Create(ctx, smm.WorkspaceCreateParams{Name: "Go team", ApprovalRequired: true, Timezone: "Europe/Berlin"})
	if err != nil || team.Role != "owner" || team.Personal || !team.ApprovalRequired || team.Timezone != "Europe/Berlin" {
		t.Fatalf("Create: %+v, %v", team, err)
	}
	added, err := c.Workspaces.AddMember(ctx, team.ID, smm.MemberAddParams{Email: live.MemberEmail, Role: "viewer"})
	if err != nil || added.UserID != me.ID || added.Role != "viewer" {
		t.Fatalf("AddMember: %+v, %v", added, err)
	}
	if _, err := c.Workspaces.AddMember(ctx, team.ID, smm.MemberAddParams{UserID: me.ID, Role: "admin"}); problemCode(err, 409) != "already_member" {
		t.Fatalf("adding a member twice: %v", err)
	}
	if _, err := c.Workspaces.AddMember(ctx, team.ID, smm.MemberAddParams{UserID: me.ID, Role: "boss"}); problemCode(err, 422) != "validation_error" {
		t.Fatalf("an unknown role: %v", err)
	}
	theirs, err := member.Workspaces.List(ctx, smm.ListParams{}).All(ctx)
	if err != nil || len(theirs) != 2 {
		t.Fatalf("the member's workspaces: %+v, %v", theirs, err)
	}
	for _, w := range theirs {
		if w.ID == team.ID && w.Role != "viewer" {
			t.Fatalf("the member's role: %+v", w)
		}
	}

	// A viewer reads; managing accounts needs admin or owner.
	if _, err := member.Accounts.Create(ctx, smm.AccountCreateParams{Name: "Not mine to make", WorkspaceID: team.ID}); problemCode(err, 403) != "forbidden" {
		t.Fatalf("a viewer creating an account: %v", err)
	}
	if _, err := c.Workspaces.SetRole(ctx, team.ID, me.ID, "admin"); err != nil {
		t.Fatal(err)
	}
	account, err := member.Accounts.Create(ctx, smm.AccountCreateParams{Name: "Team brand", WorkspaceID: team.ID})
	if err != nil || account.WorkspaceID != team.ID {
		t.Fatalf("an admin creating an account: %+v, %v", account, err)
	}
	inTeam, err := c.Accounts.List(ctx, smm.AccountListParams{WorkspaceID: team.ID}).All(ctx)
	if err != nil || len(inTeam) != 1 || inTeam[0].ID != account.ID {
		t.Fatalf("the team's accounts: %+v, %v", inTeam, err)
	}
	members, err := c.Workspaces.Members(ctx, team.ID, smm.ListParams{Limit: 1}).All(ctx)
	if err != nil || len(members) != 2 {
		t.Fatalf("Members: %+v, %v", members, err)
	}

	// Removed, the member loses access at once.
	if err := c.Workspaces.RemoveMember(ctx, team.ID, me.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := member.Accounts.Get(ctx, account.ID); problemCode(err, 404) != "not_found" {
		t.Fatalf("a removed member reading the account: %v", err)
	}
	if _, err := member.Workspaces.Get(ctx, team.ID); problemCode(err, 404) != "not_found" {
		t.Fatalf("a removed member reading the workspace: %v", err)
	}
	owner, err := c.Me(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Workspaces.RemoveMember(ctx, team.ID, owner.ID); problemCode(err, 409) != "last_owner" {
		t.Fatalf("removing the last owner: %v", err)
	}
	approval := false
	renamed, err := c.Workspaces.Update(ctx, team.ID, smm.WorkspaceUpdateParams{Name: "Go team (old)", ApprovalRequired: &approval})
	if err != nil || renamed.Name != "Go team (old)" || renamed.ApprovalRequired {
		t.Fatalf("Update: %+v, %v", renamed, err)
	}
	if err := c.Workspaces.Delete(ctx, team.ID); problemCode(err, 409) != "workspace_has_accounts" {
		t.Fatalf("deleting a workspace with accounts: %v", err)
	}
	if err := c.Accounts.Delete(ctx, account.ID, smm.AccountDeleteParams{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Workspaces.Delete(ctx, team.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Workspaces.Get(ctx, team.ID); problemCode(err, 404) != "not_found" {
		t.Fatalf("a deleted workspace: %v", err)
	}
}
