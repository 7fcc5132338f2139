# The public API of quasidyn (docs/api.md): the headers a user includes. `cmake --install`
# installs these and the headers they include (their closure, computed here from the sources);
# nothing else of src/quasidyn is installed. tests/style/check_public_api.py checks that every
# entry point is documented in docs/api.md.
set(QUASIDYN_PUBLIC_HEADERS
    # Scenes
    quasidyn/scenes/scene_loading.h
    quasidyn/io/scene_edit.h
    quasidyn/model/scene.h
    quasidyn/model/formulation_choice.h
    quasidyn/model/scene_error.h
    # Formulations: the registry, a model's description, a plug-in's parameters
    quasidyn/formulations/registry.h
    quasidyn/formulations/registry_report.h
    quasidyn/formulations/parameters.h
    quasidyn/stepping/formulation_info.h
    # Stepping and linearising
    quasidyn/stepping/step_model.h
    quasidyn/stepping/batch_step.h
    quasidyn/stepping/randomized_smoothing.h
    quasidyn/common/parallel_for.h
    quasidyn/linearization/linearizer.h
    # Rollouts, trajectories, comparisons
    quasidyn/simulation/rollout.h
    quasidyn/simulation/trajectory.h
    quasidyn/simulation/trajectory_file.h
    quasidyn/simulation/formulation_comparison.h
    # Planning and control
    quasidyn/planning/rrt.h
    quasidyn/planning/plan_path.h
    quasidyn/control/trajectory_optimizer.h
    quasidyn/control/stabilizer.h
    quasidyn/control/plan_tracking.h
    quasidyn/control/contact_mpc.h
    quasidyn/control/mpc_closed_loop.h
    # Building blocks of a formulation of one's own (docs/adding-a-formulation.md)
    quasidyn/contact/contact_model.h
    quasidyn/kinematics/kinematics.h
    quasidyn/dynamics/quasi_dynamic_cost.h
    quasidyn/gradients/finite_difference.h)

# *out: `headers` and every quasidyn header they include, transitively (paths relative to src/).
function(quasidyn_header_closure headers out)
  set(closure "")
  set(work ${headers})
  while(work)
    list(POP_FRONT work header)
    if(header IN_LIST closure)
      continue()
    endif()
    list(APPEND closure ${header})
    file(STRINGS ${PROJECT_SOURCE_DIR}/src/${header} includes
         REGEX "^[ \t]*#[ \t]*include[ \t]+\"quasidyn/[^\"]+\"")
    foreach(line ${includes})
      string(REGEX REPLACE ".*\"(quasidyn/[^\"]+)\".*" "\\1" included "${line}")
      list(APPEND work ${included})
    endforeach()
  endwhile()
  list(SORT closure)
  set(${out} ${closure} PARENT_SCOPE)
endfunction()
