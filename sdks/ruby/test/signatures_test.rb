# frozen_string_literal: true

require "test_helper"
require "rbs"

# sig/smm.rbs names only types that exist, and says the truth: every public method of the SDK is declared there,
# with the same positional parameters and keywords (required and optional) as the code.
class SignaturesTest < Minitest::Test
  SIG = File.expand_path("../sig", __dir__)

  def builder
    loader = RBS::EnvironmentLoader.new
    loader.add(path: Pathname(SIG))
    RBS::DefinitionBuilder.new(env: RBS::Environment.from_loader(loader).resolve_type_names)
  end

  def test_every_public_method_is_declared_with_its_parameters
    builder = self.builder
    # Building a definition resolves every type it names: an unknown one raises here.
    builder.env.class_decls.each_key.select { |name| name.to_s.start_with?("::Smm::") }.each do |name|
      builder.build_instance(name)
      builder.build_singleton(name)
    end
    lib = File.expand_path("../lib", __dir__)
    Smm.constants.map { |name| Smm.const_get(name) }.grep(Module).each do |mod|
      type = RBS::TypeName.new(name: mod.name.split("::").last.to_sym, namespace: RBS::Namespace.parse("::Smm"))
      [[mod.is_a?(Class) ? builder.build_instance(type) : nil, mod.public_instance_methods(false).map { |m| mod.instance_method(m) }],
       [builder.build_singleton(type), mod.singleton_methods(false).map { |m| mod.method(m) }]].each do |definition, methods|
        methods.select { |m| m.source_location&.first&.start_with?(lib) }.each do |method|
          declared = definition&.methods&.[](method.name)
          refute_nil declared, "#{mod}##{method.name} is not declared in sig/smm.rbs"
          assert_equal shape(method.parameters), declared_shape(declared), "#{mod}##{method.name}'s parameters differ from sig/smm.rbs"
        end
      end
    end
  end

  private

  def shape(parameters)
    kinds = parameters.group_by(&:first).transform_values { |list| list.map(&:last).sort }
    { positional: kinds.fetch(:req, []).size, optional: kinds.fetch(:opt, []).size,
      keywords: kinds.fetch(:keyreq, []), optional_keywords: kinds.fetch(:key, []), rest_keywords: kinds.key?(:keyrest) }
  end

  def declared_shape(method)
    type = method.method_types.first.type
    { positional: type.required_positionals.size, optional: type.optional_positionals.size,
      keywords: type.required_keywords.keys.sort, optional_keywords: type.optional_keywords.keys.sort,
      rest_keywords: !type.rest_keywords.nil? }
  end
end
